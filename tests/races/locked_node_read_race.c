// VERDICT: race
// Multiset's key reads (locked_node.h): a second reader reads the keys under
// L after the first; its R takes the place of the first reader's, which it
// finds ordered before it (the lock). The checker, ordered after the first
// reader but not the second, writes the keys without L: it races with the
// second reader's reads, not the first's.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: #0 rekey
// CHECK: #0 read_second
// ABSENT: #0 read_first
#include "locked_node.h"

static void second_step(void) { read_second(); }
static void check(void) { rekey(); }

int main(void) { return locked_node_run(); }
