// VERDICT: race
// The checker of locked_node.h writes the keys without L first; the readers
// then read them under L, unordered with that write (both races). The second
// reader's R takes the first reader's place (the lock orders them), but the
// checker's W cell on the same bytes is not ordered before it: the read must
// still be checked against it.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: #0 read_second
// CHECK: #0 rekey
#define LOCKED_NODE_CHECK_FIRST
#include "locked_node.h"

static void second_step(void) { read_second(); }
static void check(void) { rekey(); }

int main(void) { return locked_node_run(); }
