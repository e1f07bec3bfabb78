// VERDICT: race
// Split records from a read of the other half of a granule than the one another thread
// wrote (goldilocks: the read checks nothing against that W, so the record may become a
// split one only if the W is known ordered before the read: by the lock the writer held,
// or by an earlier walk). Each access is its own function (an origin of its own). Three
// threads per scenario, one scenario after another:
//   unordered:    A writes high; B, after A (no happens-before), reads low (no race: other
//                 bytes) and high: a race with A's write, which B's read of low must not
//                 hide by making a split record of A's unordered W.
//   locked:       A writes high holding L; B, holding L after A, reads low (a split record,
//                 ordered by L); C, ordered after A only, writes low: it races with B's read.
//   cached:       A writes `first` and high, publishes; B acquires, reads `first` (a walk:
//                 A's pos is known ordered) and low (split, lock-free); C, ordered after A
//                 only, writes low: it races with B's read.
//   cached_later: as cached, but A writes high after it publishes: B's walk knows only
//                 the earlier pos, so B's read of low makes no split record, and its read
//                 of high races with A's write.
// CHECK: #0 unordered_read_high
// CHECK: #0 locked_c_write_low
// CHECK: #0 cached_c_write_low
// CHECK: #0 cached_later_read_high
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include "invisible_barrier.h"

union pair { uint64_t whole; uint32_t half[2]; };
struct scenario {
  union pair x;
  uint64_t first;         /* another granule A writes first */
  atomic_int published;   /* A's release */
  pthread_mutex_t lock;
  ib_flag a_done, b_done;
};
static struct scenario sc[4];
static uint64_t seen;
#define FN static __attribute__((noinline))

static void publish(struct scenario *s) { atomic_store_explicit(&s->published, 1, memory_order_release); }
static void acquire(struct scenario *s) {
  while (!atomic_load_explicit(&s->published, memory_order_acquire))
    ;
}

FN void unordered_write_high(union pair *x) { x->half[1] = 2; }
FN void unordered_read_low(union pair *x) { seen += x->half[0]; }
FN void unordered_read_high(union pair *x) { seen += x->half[1]; }
static void *unordered_a(void *p) { struct scenario *s = p; unordered_write_high(&s->x); ib_set(&s->a_done); return NULL; }
static void *unordered_b(void *p) {
  struct scenario *s = p;
  ib_wait(&s->a_done);
  unordered_read_low(&s->x);
  unordered_read_high(&s->x);
  return NULL;
}
static void *nothing(void *p) { (void)p; return NULL; }

FN void locked_write_high(union pair *x) { x->half[1] = 2; }
FN void locked_read_low(union pair *x) { seen += x->half[0]; }
FN void locked_c_write_low(union pair *x) { x->half[0] = 9; }
static void *locked_a(void *p) {
  struct scenario *s = p;
  pthread_mutex_lock(&s->lock);
  locked_write_high(&s->x);
  pthread_mutex_unlock(&s->lock);
  publish(s);
  ib_set(&s->a_done);
  return NULL;
}
static void *locked_b(void *p) {
  struct scenario *s = p;
  ib_wait(&s->a_done);
  pthread_mutex_lock(&s->lock);
  locked_read_low(&s->x);
  pthread_mutex_unlock(&s->lock);
  ib_set(&s->b_done);
  return NULL;
}
static void *locked_c(void *p) { struct scenario *s = p; acquire(s); ib_wait(&s->b_done); locked_c_write_low(&s->x); return NULL; }

FN void cached_write_high(union pair *x) { x->half[1] = 2; }
FN void cached_read_low(union pair *x) { seen += x->half[0]; }
FN void cached_c_write_low(union pair *x) { x->half[0] = 9; }
static void *cached_a(void *p) {
  struct scenario *s = p;
  s->first = 5;
  cached_write_high(&s->x);
  publish(s);
  ib_set(&s->a_done);
  return NULL;
}
static void *cached_b(void *p) {
  struct scenario *s = p;
  acquire(s);
  seen += s->first;
  cached_read_low(&s->x);
  ib_set(&s->b_done);
  return NULL;
}
static void *cached_c(void *p) { struct scenario *s = p; acquire(s); ib_wait(&s->b_done); cached_c_write_low(&s->x); return NULL; }

FN void cached_later_write_high(union pair *x) { x->half[1] = 2; }
FN void cached_later_read_low(union pair *x) { seen += x->half[0]; }
FN void cached_later_read_high(union pair *x) { seen += x->half[1]; }
static void *cached_later_a(void *p) {
  struct scenario *s = p;
  s->first = 5;
  publish(s);
  cached_later_write_high(&s->x);
  ib_set(&s->a_done);
  return NULL;
}
static void *cached_later_b(void *p) {
  struct scenario *s = p;
  acquire(s);
  ib_wait(&s->a_done);
  seen += s->first;
  cached_later_read_low(&s->x);
  cached_later_read_high(&s->x);
  return NULL;
}

int main(void) {
  static void *(*const fa[])(void *) = { unordered_a, locked_a, cached_a, cached_later_a };
  static void *(*const fb[])(void *) = { unordered_b, locked_b, cached_b, cached_later_b };
  static void *(*const fc[])(void *) = { nothing, locked_c, cached_c, nothing };
  uint64_t sum = 0;
  for (int i = 0; i < 4; i++) {
    pthread_t a, b, c;
    pthread_mutex_init(&sc[i].lock, NULL);
    pthread_create(&a, NULL, fa[i], &sc[i]);
    pthread_create(&b, NULL, fb[i], &sc[i]);
    pthread_create(&c, NULL, fc[i], &sc[i]);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_join(c, NULL);
    sum += sc[i].x.whole + sc[i].first;
  }
  printf("%llu\n", (unsigned long long)(sum + seen));
  return 0;
}
