/* half_scenario.h — the frame of the half-record tests (inline_half_*.c).
 *
 * Each scenario runs on a granule of its own (an 8-byte union of two 4-byte
 * halves): a thread T accesses it, publishes with a release store (T's next
 * epoch starts), accesses it again; a thread U acquires the publication and
 * then, once T is done (an invisible wait: no ordering), accesses it. The
 * scenarios run one after another (joined before the next starts).
 */
#ifndef RACES_HALF_SCENARIO_H
#define RACES_HALF_SCENARIO_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include "invisible_barrier.h"

union pair { uint64_t whole; uint32_t half[2]; };
struct scenario {
  union pair x;
  atomic_int published;
  ib_flag done;
};
static uint32_t seen;   /* U's reads end here */

static void publish(struct scenario *s) { atomic_store_explicit(&s->published, 1, memory_order_release); }
/* U: after T's publication (ordered), and after T's last access (not ordered). */
static void await(struct scenario *s) {
  while (!atomic_load_explicit(&s->published, memory_order_acquire))
    ;
  ib_wait(&s->done);
}
/* T: done (U may go on). */
static void finished(struct scenario *s) { ib_set(&s->done); }

/* T: write all (T's own record, not a split one), read one half, publish,
 * read the other half and write it (the write drops T's later R there: the
 * record keeps the first half's earlier R only). last: the index of that half. */
static __attribute__((unused)) void t_read_then_write(struct scenario *s, int last) {
  s->x.whole = 7;
  KEEP(s->x.half[!last]);
  publish(s);
  uint32_t v = s->x.half[last];
  __asm__ volatile("" ::: "memory");   /* (else the read's check is left to the write's) */
  s->x.half[last] = v + 1;
  finished(s);
}

/* Runs scenario i with threads t[i] and u[i] on sc[i], for i < n; prints a
 * sum of every granule so no access is optimised away. */
static void run_scenarios(struct scenario *sc, void *(*const *t)(void *), void *(*const *u)(void *), int n) {
  for (int i = 0; i < n; i++) {
    sc[i].x.whole = 0x0000000300000001ull;
    pthread_t a, b;
    pthread_create(&a, NULL, t[i], &sc[i]);
    pthread_create(&b, NULL, u[i], &sc[i]);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
  }
  uint64_t sum = seen;
  for (int i = 0; i < n; i++)
    sum += sc[i].x.whole;
  printf("%llu\n", (unsigned long long)sum);
}

#endif
