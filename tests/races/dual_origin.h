/* dual_origin.h — the phases the dual_origin_*.c tests share: an owner
 * writes the low and then the high key of each granule from two statements
 * (one pos, two origins: a half W record), releases after_writes, reads the
 * low and then the high keys from two more (a second kind with two origins:
 * the record's dual origins), and releases after_reads. A third thread,
 * ordered after all of it, writes the low keys: the granules go packed
 * (inl_write_packs), the owner's W and R left on the high keys with their
 * own origins. A fourth thread writes the high keys after after_writes or
 * after_reads (FOURTH_AFTER). The invisible flags fix the order of the
 * threads (no happens-before).
 *
 * Usage: define FOURTH_AFTER, include this, return dual_origin_run(). */
#ifndef RACES_DUAL_ORIGIN_H
#define RACES_DUAL_ORIGIN_H
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"
#include "threads.h"

#define N 64
_Alignas(8) int keys[N];
long sum;
pthread_mutex_t after_writes = PTHREAD_MUTEX_INITIALIZER, after_reads = PTHREAD_MUTEX_INITIALIZER;
ib_flag owner_done, third_done;

static __attribute__((noinline)) void write_low(void) { for (int i = 0; i < N; i += 2) keys[i] = i; }
static __attribute__((noinline)) void write_high(void) { for (int i = 1; i < N; i += 2) keys[i] = i; }
static __attribute__((noinline)) void read_low(void) { for (int i = 0; i < N; i += 2) sum += keys[i]; }
static __attribute__((noinline)) void read_high(void) { for (int i = 1; i < N; i += 2) sum += keys[i]; }
/* Granule 0 is where a thread's first access to the others' entries walks
 * the update list; the shortcuts under test take the granules after it. */
static __attribute__((noinline)) void third_write_low(void) { for (int i = 0; i < N; i += 2) keys[i] = -i; }
static __attribute__((noinline)) void fourth_write_high(void) { for (int i = 3; i < N; i += 2) keys[i] = -i; }

static void *owner(void *arg)
{
  write_low();
  write_high();
  pass(&after_writes);
  read_low();
  read_high();
  pass(&after_reads);
  ib_set(&owner_done);
  return NULL;
}
static void *third(void *arg)
{
  ib_wait(&owner_done);
  pass(&after_reads);     /* after everything the owner did */
  third_write_low();
  ib_set(&third_done);
  return NULL;
}
static void *fourth(void *arg)
{
  ib_wait(&third_done);
  pass(&FOURTH_AFTER);
  fourth_write_high();
  return NULL;
}

static int dual_origin_run(void)
{
  void *(*fn[])(void *) = { owner, third, fourth };
  run_threads(fn, 3);
  printf("%ld %d %d\n", sum, keys[0], keys[N - 1]);
  return 0;
}
#endif
