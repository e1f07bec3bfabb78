/* scatter.h — the phases the scatter_*.c tests share: radix's scatter, an
 * array of 4-byte keys whose 8-byte granules each thread meets in turn.
 * A writer fills every key; a reader, ordered after it (after_fill), reads
 * them all, then releases after_read. Each test adds a third thread (and
 * maybe a fourth) that takes its order from after_fill or after_read and
 * writes or reads keys of one half of each granule, and says in its header
 * which of their accesses race. The threads also run in a fixed order (the
 * invisible flags, no happens-before), so each access meets the granule
 * state the test is about.
 *
 * Usage: define `static void *third(void *)` (and `fourth` with
 * SCATTER_FOURTH) after including this, and return scatter_run() from main. */
#ifndef RACES_SCATTER_H
#define RACES_SCATTER_H
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"
#include "threads.h"

#define N 64
_Alignas(8) int keys[N];
long sum;
pthread_mutex_t after_fill = PTHREAD_MUTEX_INITIALIZER, after_read = PTHREAD_MUTEX_INITIALIZER;
ib_flag filled, read_done, third_done;

static __attribute__((noinline)) void fill_keys(void) { for (int i = 0; i < N; i++) keys[i] = i * 7; }
static __attribute__((noinline)) void read_keys(void) { long s = 0; for (int i = 0; i < N; i++) s += keys[i]; sum = s; }
/* The low or high key of each granule from granule `first` on. Granule 0 is
 * where the first of a thread's accesses to the others' entries walks the
 * update list; the shortcuts under test take the granules after it. */
static __attribute__((noinline)) void write_low(int first) { for (int i = 2 * first; i < N; i += 2) keys[i] = -i; }
static __attribute__((noinline)) void write_high(int first) { for (int i = 2 * first + 1; i < N; i += 2) keys[i] = -i; }
static __attribute__((noinline)) void read_high(int first)
{
  long s = 0;
  for (int i = 2 * first + 1; i < N; i += 2)
    s += keys[i];
  sum += s;
}

static void *writer(void *arg) { fill_keys(); pass(&after_fill); ib_set(&filled); return NULL; }
static void *reader(void *arg)
{
  ib_wait(&filled);
  pass(&after_fill);      /* after the writer */
  read_keys();
  pass(&after_read);
  ib_set(&read_done);
  return NULL;
}
static void *third(void *arg);
#ifdef SCATTER_FOURTH
static void *fourth(void *arg);
#endif

static int scatter_run(void)
{
  void *(*fn[])(void *) = { writer, reader, third,
#ifdef SCATTER_FOURTH
                            fourth,
#endif
  };
  run_threads(fn, sizeof fn / sizeof fn[0]);
  printf("%ld %d %d\n", sum, keys[0], keys[N - 1]);
  return 0;
}
#endif
