// VERDICT: norace
// dual_origin.h: the fourth thread, ordered after everything the owner did,
// writes the high keys of the packed granules; the third thread wrote only
// the low ones, so nothing races.
#define FOURTH_AFTER after_reads
#include "dual_origin.h"

int main(void) { return dual_origin_run(); }
