/* scatter_short.h — radix's scatter (scatter.h) with a short write: a
 * third thread, ordered after the writer and the reader, writes bytes 0-1
 * of each granule and then its high key. Bytes 2-3 keep the writer's W and
 * the reader's R, so the high key's write must not fold the granule into
 * the third thread's record (pack_write_completes: a cell with bytes
 * outside the write stays). A fourth thread reads bytes 2-3, ordered after
 * the writer and the reader if FOURTH_ORDERED is 1, else after nobody.
 *
 * Usage: define FOURTH_ORDERED, include this, return scatter_run(). */
#ifndef RACES_SCATTER_SHORT_H
#define RACES_SCATTER_SHORT_H
#define SCATTER_FOURTH
#include <string.h>
#include "scatter.h"

/* Bytes 0-1 and bytes 2-3 of the granules from `first` on, 2-byte accesses. */
static __attribute__((noinline)) void write_short(int first)
{
  for (int i = 2 * first; i < N; i += 2) {
    short v = (short)-i;
    memcpy((char *)&keys[i], &v, 2);
  }
}
long middle;   /* the fourth thread's sum (not `sum`, which it would race on) */
static __attribute__((noinline)) void read_middle(int first)
{
  long s = 0;
  for (int i = 2 * first; i < N; i += 2) {
    short v;
    memcpy(&v, (char *)&keys[i] + 2, 2);
    s += v;
  }
  middle = s;
}

static void *third(void *arg)
{
  ib_wait(&read_done);
  pass(&after_read);      /* after the reader, and so after the writer */
  write_short(0);
  write_high(0);
  ib_set(&third_done);
  return NULL;
}
static void *fourth(void *arg)
{
  ib_wait(&third_done);
  if (FOURTH_ORDERED)
    pass(&after_read);
  read_middle(1);
  return NULL;
}
#endif
