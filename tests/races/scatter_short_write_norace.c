// VERDICT: norace
// scatter_short.h: the fourth thread, ordered after the writer and the
// reader, reads bytes 2-3: the third thread wrote bytes 0-1 and the high
// key only, so nothing races.
#define FOURTH_ORDERED 1
#include "scatter_short.h"

int main(void) { return scatter_run(); }
