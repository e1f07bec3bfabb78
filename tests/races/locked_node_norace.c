// VERDICT: norace
// locked_node.h with the checker holding L too: its write of the keys and
// its read of the counts are ordered after the second reader's reads and the
// second writer's counts (the lock), after cells replaced in place.
#include "locked_node.h"

static void second_step(void)
{
  read_second();
  recount();
}
static void check(void)
{
  pthread_mutex_lock(&L);
  rekey();
  read_counts();
  pthread_mutex_unlock(&L);
}

int main(void) { return locked_node_run(); }
