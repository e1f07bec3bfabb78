// VERDICT: race
// dual_origin.h: the fourth thread, ordered after the owner's writes but not
// its reads, writes the high keys of packed granules whose owner's R on the
// high half has an origin of its own (the dual origin, w[6]'s high half).
// It races with the high keys' reads, and the report must name read_high,
// not the statement that wrote them.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: #0 fourth_write_high
// CHECK: #0 read_high
// ABSENT: #0 write_high
// ABSENT: #0 read_low
// ABSENT: #0 third_write_low
#define FOURTH_AFTER after_writes
#include "dual_origin.h"

int main(void) { return dual_origin_run(); }
