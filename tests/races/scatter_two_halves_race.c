// VERDICT: race
// Radix's scatter (scatter.h): after the writer and the reader, a third thread
// writes the low keys of the granules and then their high keys, from another
// statement. Each granule goes packed at the low key (inl_write_packs) and
// folds back into the third thread's record at the high key
// (pack_write_completes), one origin on each half. A fourth thread, ordered
// after the first two but not the third's writes, reads the high keys: it
// races with the high keys' writes, which the record must name as such.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: #0 read_high
// CHECK: #0 write_high
// ABSENT: #0 write_low
// ABSENT: #0 read_keys
#define SCATTER_FOURTH
#include "scatter.h"

static void *third(void *arg)
{
  ib_wait(&read_done);
  pass(&after_read);      /* after the reader, and so after the writer */
  write_low(0);
  write_high(0);
  ib_set(&third_done);
  return NULL;
}
static void *fourth(void *arg)
{
  ib_wait(&third_done);
  pass(&after_read);      /* after the reader and the writer, not the third thread's writes */
  read_high(1);           /* races with write_high */
  return NULL;
}

int main(void) { return scatter_run(); }
