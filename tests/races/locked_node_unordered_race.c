// VERDICT: race
// A second reader of locked_node.h reads the keys without L, unordered with
// the first reader: the first reader's R is not ordered before its read, so
// both stay (only an R found ordered before the read gives way to it). The
// checker, ordered after the second reader but not the first, writes the
// keys: it races with the first reader's reads.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: #0 rekey
// CHECK: #0 read_first
// ABSENT: #0 read_second
#define LOCKED_NODE_UNORDERED
#include "locked_node.h"

static void second_step(void) { read_second(); }
static void check(void) { rekey(); }

int main(void) { return locked_node_run(); }
