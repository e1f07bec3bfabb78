// VERDICT: race
// The first reader of locked_node.h reads the keys again under L, in a later
// epoch: its own R moves to that epoch in place. The checker, ordered after
// the first read but not the second, writes the keys without L: it races
// with the second read.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: #0 rekey
// CHECK: #0 read_second
// ABSENT: #0 read_first
#define LOCKED_NODE_OWN
#include "locked_node.h"

static void second_step(void) { read_second(); }
static void check(void) { rekey(); }

int main(void) { return locked_node_run(); }
