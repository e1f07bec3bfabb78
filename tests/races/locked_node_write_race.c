// VERDICT: race
// A count written under L by a thread other than the one that wrote it
// before (locked_node.h): the new W takes the old one's place. The checker,
// ordered after the first writer but not the second, reads the counts
// without L: it races with the second write.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: #0 read_counts
// CHECK: #0 recount
// ABSENT: #0 write_counts
#include "locked_node.h"

static void second_step(void) { recount(); }
static void check(void) { read_counts(); }

int main(void) { return locked_node_run(); }
