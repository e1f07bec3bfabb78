// VERDICT: race
// Radix's scatter (scatter.h) with a missing ordering: a third thread, ordered
// after the writer but not the reader, writes the low keys of the granules
// and then their high keys. Both writes race with the reads: the scatter's
// shortcuts (inl_write_packs at the low key, pack_write_completes at the high
// one) take only entries already known ordered before the write, so both
// races must be found.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: #0 write_low
// CHECK: #0 write_high
// CHECK: #0 read_keys
// ABSENT: #0 fill_keys
#include "scatter.h"

static void *third(void *arg)
{
  ib_wait(&read_done);
  pass(&after_fill);      /* after the writer, not the reader's reads */
  write_low(0);           /* races with read_keys */
  write_high(0);          /* races with read_keys */
  return NULL;
}

int main(void) { return scatter_run(); }
