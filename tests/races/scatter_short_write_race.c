// VERDICT: race
// scatter_short.h: the fourth thread, ordered after nobody, reads bytes 2-3
// of the granules the third thread wrote around: it races with the writer's
// fill, whose W must still be on those bytes.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: #0 read_middle
// CHECK: #0 fill_keys
// ABSENT: #0 write_short
// ABSENT: #0 write_high
#define FOURTH_ORDERED 0
#include "scatter_short.h"

int main(void) { return scatter_run(); }
