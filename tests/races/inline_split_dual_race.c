// VERDICT: race
// Split half records (goldilocks: another thread's W, in two halves or with two origins,
// found ordered before the reader's read) made by the locked path's fold back, and the
// reader's later reads on the lock-free path. Each access is its own function (an origin of
// its own). Three threads per scenario, one scenario after another:
//   dual:     A writes low, high (one epoch, two origins), publishes; B acquires and reads
//             low, high (B's R: one pos, two origins); C, ordered after A only, writes high:
//             it races with B's read of high, which the report must name.
//   raced:    A writes low, high, unpublished; B, after A (no happens-before), reads low
//             (a race: no split record may be made of it) and high (a race too).
//   later:    A writes low, publishes, writes high; B acquires (ordered after the low
//             write only) and, after A, reads low (ordered: but the high W is later than
//             the one it checked, so no split record) and high (a race with A's write).
//   cached, cached_later: dual and later, with B reading another granule A wrote first
//             (a walk: A's pos is then known ordered before B), so B's read of low takes
//             the lock-free path (inl_split_half_fast) with the same rules.
// CHECK: #0 dual_read_high
// CHECK: #0 raced_write_low
// CHECK: #0 raced_write_high
// CHECK: #0 later_write_high
// CHECK: #0 cached_read_high
// CHECK: #0 cached_later_write_high
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
  ib_flag a_done, b_done;
};
static struct scenario sc[5];
static uint64_t seen;
#define FN static __attribute__((noinline))

static void publish(struct scenario *s) { atomic_store_explicit(&s->published, 1, memory_order_release); }
static void acquire(struct scenario *s) {
  while (!atomic_load_explicit(&s->published, memory_order_acquire))
    ;
}

FN void dual_write_low(union pair *x) { x->half[0] = 1; }
FN void dual_write_high(union pair *x) { x->half[1] = 2; }
FN void dual_read_low(union pair *x) { seen += x->half[0]; }
FN void dual_read_high(union pair *x) { seen += x->half[1]; }
FN void dual_c_write_high(union pair *x) { x->half[1] = 9; }
static void *dual_a(void *p) { struct scenario *s = p; dual_write_low(&s->x); dual_write_high(&s->x); publish(s); ib_set(&s->a_done); return NULL; }
static void *dual_b(void *p) { struct scenario *s = p; acquire(s); dual_read_low(&s->x); dual_read_high(&s->x); ib_set(&s->b_done); return NULL; }
static void *dual_c(void *p) { struct scenario *s = p; acquire(s); ib_wait(&s->b_done); dual_c_write_high(&s->x); return NULL; }

FN void raced_write_low(union pair *x) { x->half[0] = 1; }
FN void raced_write_high(union pair *x) { x->half[1] = 2; }
FN void raced_read_low(union pair *x) { seen += x->half[0]; }
FN void raced_read_high(union pair *x) { seen += x->half[1]; }
static void *raced_a(void *p) { struct scenario *s = p; raced_write_low(&s->x); raced_write_high(&s->x); ib_set(&s->a_done); return NULL; }
static void *raced_b(void *p) { struct scenario *s = p; ib_wait(&s->a_done); raced_read_low(&s->x); raced_read_high(&s->x); ib_set(&s->b_done); return NULL; }
static void *raced_c(void *p) { (void)p; return NULL; }

FN void later_write_low(union pair *x) { x->half[0] = 1; }
FN void later_write_high(union pair *x) { x->half[1] = 2; }
FN void later_read_low(union pair *x) { seen += x->half[0]; }
FN void later_read_high(union pair *x) { seen += x->half[1]; }
static void *later_a(void *p) { struct scenario *s = p; later_write_low(&s->x); publish(s); later_write_high(&s->x); ib_set(&s->a_done); return NULL; }
static void *later_b(void *p) { struct scenario *s = p; acquire(s); ib_wait(&s->a_done); later_read_low(&s->x); later_read_high(&s->x); return NULL; }
static void *later_c(void *p) { (void)p; return NULL; }

FN void cached_write_low(union pair *x) { x->half[0] = 1; }
FN void cached_write_high(union pair *x) { x->half[1] = 2; }
FN void cached_read_low(union pair *x) { seen += x->half[0]; }
FN void cached_read_high(union pair *x) { seen += x->half[1]; }
FN void cached_c_write_high(union pair *x) { x->half[1] = 9; }
static void *cached_a(void *p) {
  struct scenario *s = p;
  s->first = 5;
  cached_write_low(&s->x);
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
  cached_read_high(&s->x);
  ib_set(&s->b_done);
  return NULL;
}
static void *cached_c(void *p) { struct scenario *s = p; acquire(s); ib_wait(&s->b_done); cached_c_write_high(&s->x); return NULL; }

FN void cached_later_write_low(union pair *x) { x->half[0] = 1; }
FN void cached_later_write_high(union pair *x) { x->half[1] = 2; }
FN void cached_later_read_low(union pair *x) { seen += x->half[0]; }
FN void cached_later_read_high(union pair *x) { seen += x->half[1]; }
static void *cached_later_a(void *p) {
  struct scenario *s = p;
  s->first = 5;
  cached_later_write_low(&s->x);
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
  static void *(*const fa[])(void *) = { dual_a, raced_a, later_a, cached_a, cached_later_a };
  static void *(*const fb[])(void *) = { dual_b, raced_b, later_b, cached_b, cached_later_b };
  static void *(*const fc[])(void *) = { dual_c, raced_c, later_c, cached_c, later_c };
  uint64_t sum = 0;
  for (int i = 0; i < 5; i++) {
    pthread_t a, b, c;
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
