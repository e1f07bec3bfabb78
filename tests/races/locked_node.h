/* locked_node.h — the phases the locked_node_*.c tests share: multiset's
 * list nodes, a 4-byte key and a 4-byte count in one 8-byte granule, each
 * written and read under the nodes' lock L by several threads in turn. One
 * thread writes the keys and another the counts (two threads' W cells: the
 * granules are packed), then a first reader reads the keys (an R cell) and
 * passes `seen`. Each test then has a second step under L (a read or write
 * whose cell takes the place of one the rule empties: pack_cell_replace)
 * and a checker, ordered after the first reader through `seen` but not
 * after the second step, that accesses the granules again; its header says
 * which accesses race. The threads also run in a fixed order (the
 * invisible flags, no happens-before), so each access meets the granule
 * state the test is about.
 *
 * With LOCKED_NODE_UNORDERED the second step runs without L, ordered after
 * the writers (`written`) but not the first reader, and the checker is
 * ordered after the second step instead of the first reader.
 *
 * With LOCKED_NODE_CHECK_FIRST the checker runs first, ordered after the
 * writers (`written`) only, and the readers come after it (invisibly: no
 * order between them and the checker).
 *
 * Usage: define `static void second_step(void)` (run by the first reader,
 * with LOCKED_NODE_OWN, or else by a thread of its own) and `static void
 * check(void)` after including this, and return locked_node_run() from main. */
#ifndef RACES_LOCKED_NODE_H
#define RACES_LOCKED_NODE_H
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"
#include "threads.h"

#define N 64
struct node {
  unsigned key, count;
};
_Alignas(8) struct node nodes[N];
long sums[3];   /* one a function: the threads' own data */
pthread_mutex_t L = PTHREAD_MUTEX_INITIALIZER, seen = PTHREAD_MUTEX_INITIALIZER, written = PTHREAD_MUTEX_INITIALIZER;
ib_flag keys_written, counts_written, first_read, second_done, checked;

static __attribute__((noinline)) void write_keys(void) { for (int i = 0; i < N; i++) nodes[i].key = 3u * i; }
static __attribute__((noinline)) void write_counts(void) { for (int i = 0; i < N; i++) nodes[i].count = 1; }
static __attribute__((noinline)) void read_first(void)
{
  long s = 0;
  for (int i = 0; i < N; i++)
    s += nodes[i].key;
  sums[0] = s;
}
static __attribute__((noinline)) void read_second(void)
{
  long s = 0;
  for (int i = 0; i < N; i++)
    s += nodes[i].key;
  sums[1] = s;
}
static __attribute__((noinline)) void recount(void) { for (int i = 0; i < N; i++) nodes[i].count = 2; }
/* The checker's accesses leave node 0 out: there a thread's first access
 * to the others' cells may walk the update list (a step that does not hold
 * L finds the writers ordered that way, and caches it), and the general
 * rule takes it; the shortcut under test takes the nodes after it. */
static __attribute__((noinline)) void rekey(void) { for (int i = 1; i < N; i++) nodes[i].key = 5u * i; }
static __attribute__((noinline)) void read_counts(void)
{
  long s = 0;
  for (int i = 1; i < N; i++)
    s += nodes[i].count;
  sums[2] = s;
}

static void second_step(void);
static void check(void);

static void *key_writer(void *arg)
{
  pthread_mutex_lock(&L);
  write_keys();
  pthread_mutex_unlock(&L);
  ib_set(&keys_written);
  return arg;
}
static void *count_writer(void *arg)
{
  ib_wait(&keys_written);
  pthread_mutex_lock(&L);
  write_counts();
  pthread_mutex_unlock(&L);
  pass(&written);         /* (after both writers: L) */
  ib_set(&counts_written);
  return arg;
}
static void *first_reader(void *arg)
{
  ib_wait(&counts_written);
#ifdef LOCKED_NODE_CHECK_FIRST
  ib_wait(&checked);
#endif
  pthread_mutex_lock(&L);
  read_first();
  pthread_mutex_unlock(&L);
#ifndef LOCKED_NODE_UNORDERED
  pass(&seen);            /* the checker is ordered after this */
#endif
  ib_set(&first_read);
#ifdef LOCKED_NODE_OWN
  pthread_mutex_lock(&L);
  second_step();          /* a later epoch of the first reader */
  pthread_mutex_unlock(&L);
  ib_set(&second_done);
#endif
  return arg;
}
#ifndef LOCKED_NODE_OWN
static void *second(void *arg)
{
  ib_wait(&first_read);

#ifdef LOCKED_NODE_UNORDERED
  pass(&written);         /* after the writers, not the first reader */
  second_step();
  pass(&seen);            /* the checker is ordered after this */
#else
  pthread_mutex_lock(&L);
  second_step();
  pthread_mutex_unlock(&L);
#endif
  ib_set(&second_done);
  return arg;
}
#endif
static void *checker(void *arg)
{
#ifdef LOCKED_NODE_UNORDERED
  ib_wait(&second_done);
  pass(&seen);            /* after the second step (and the writers), not the first reader */
#elif defined LOCKED_NODE_CHECK_FIRST
  ib_wait(&counts_written);
  pass(&written);         /* after the writers only */
#else
  ib_wait(&first_read);
  pass(&seen);            /* after the first reader, and through L the writers */
  ib_wait(&second_done);  /* (not ordered after the second step) */
#endif
  check();
  ib_set(&checked);
  return arg;
}

static int locked_node_run(void)
{
  void *(*fn[])(void *) = { key_writer, count_writer, first_reader, checker,
#ifndef LOCKED_NODE_OWN
                            second,
#endif
  };
  run_threads(fn, sizeof fn / sizeof fn[0]);
  printf("%ld %ld %ld %u %u\n", sums[0], sums[1], sums[2], nodes[0].key, nodes[N - 1].count);
  return 0;
}
#endif
