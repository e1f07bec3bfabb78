// VERDICT: race
// Radix's scatter (scatter.h): after the writer and the reader, a third thread
// rewrites every key in order from one statement. Each granule goes packed at
// its low key (inl_write_packs) and folds back into the third thread's record
// at its high key (pack_write_completes), the two writes sharing one entry. A
// fourth thread, ordered after the first two but not the third's writes,
// reads the high keys: it races with the third thread's writes, which the
// shared entry must cover.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: #0 read_high
// CHECK: #0 put
// CHECK: #1 write_all
// ABSENT: #0 read_keys
#define SCATTER_FOURTH
#include "scatter.h"

static __attribute__((noinline)) void put(int *p, int v) { *p = v; }   /* (one statement: one origin) */
static __attribute__((noinline)) void write_all(void) { for (int i = 0; i < N; i++) put(&keys[i], -i); }

static void *third(void *arg)
{
  ib_wait(&read_done);
  pass(&after_read);      /* after the reader, and so after the writer */
  write_all();
  ib_set(&third_done);
  return NULL;
}
static void *fourth(void *arg)
{
  ib_wait(&third_done);
  pass(&after_read);      /* after the reader and the writer, not the third thread's writes */
  read_high(1);           /* races with write_all */
  return NULL;
}

int main(void) { return scatter_run(); }
