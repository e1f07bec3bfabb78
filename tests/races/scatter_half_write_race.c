// VERDICT: race
// Radix's scatter (scatter.h): after the writer and the reader, a third thread
// writes the low key of each granule, which leaves the third thread's write
// on the low half and the first two threads' entries on the high half (cells
// made without the general rule's steps, inl_write_packs). A fourth thread,
// ordered after the writer but not the reader, writes the high keys: it races
// with the reads, which the granules must still hold.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: #0 write_high
// CHECK: #0 read_keys
// ABSENT: #0 write_low
// ABSENT: #0 fill_keys
#define SCATTER_FOURTH
#include "scatter.h"

static void *third(void *arg)
{
  ib_wait(&read_done);
  pass(&after_read);      /* after the reader, and so after the writer */
  write_low(0);
  ib_set(&third_done);
  return NULL;
}
static void *fourth(void *arg)
{
  ib_wait(&third_done);
  pass(&after_fill);      /* after the writer and the reader's first pass only */
  write_high(1);          /* races with read_keys */
  return NULL;
}

int main(void) { return scatter_run(); }
