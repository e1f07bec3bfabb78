// VERDICT: race
// Dual origins (goldilocks: in a half record, the other kind's two 4-byte halves share one
// pos but not one origin: two copies of one statement in an unrolled loop). Each access below
// is its own function, so each has an origin of its own, and every report must name the
// access on the racing half, not its neighbour's. In the frame of half_scenario.h (T's
// accesses after its publication are unordered with U's; T's reads come in an epoch after its
// writes', since a read its own W of the same epoch covers records nothing):
//   own0: T writes low, high, reads low, high (W half, R dual); U writes high.
//   own1: T writes low, high, reads low, publishes again, reads high (R half, W dual, made
//         by the locked path's fold back); U writes high.
//   own2: T writes low, high, reads low, publishes for U, reads high: R's halves have two
//         pos, not two origins of one pos; U writes high (ordered after all but that read).
//   own3: T as in own0, then writes low again from elsewhere (the write drops R's low half:
//         R's origin is then its high half's); U writes high.
//   own4: T as in own1, then reads both halves from one function (R one history again: W's
//         two origins make it the half kind); U writes high.
//   own5: T as in own0, publishes again, reads low: R gets two pos, so W, one pos, becomes
//         the dual kind and R the half kind (the roles swap); U writes high.
// CHECK: #0 own0_write_high
// CHECK: #0 own0_read_high
// CHECK: #0 own1_write_high
// CHECK: #0 own1_read_high
// CHECK: #0 own2_read_high
// CHECK: #0 own3_read_high
// CHECK: #0 own4_write_high
// CHECK: #0 own4_read_half
// CHECK: #0 own5_write_high
// CHECK: #0 own5_read_high
#include "half_scenario.h"

static struct scenario sc[6];
atomic_int elsewhere;   /* a release nobody acquires: T's next epoch starts (read by main: kept) */
#define FN static __attribute__((noinline))

FN void own0_write_low(union pair *x) { x->half[0] = 1; }
FN void own0_write_high(union pair *x) { x->half[1] = 2; }
FN void own0_read_low(union pair *x) { KEEP(x->half[0]); }
FN void own0_read_high(union pair *x) { KEEP(x->half[1]); }
static void *t0(void *a) {
  struct scenario *s = a;
  publish(s);
  own0_write_low(&s->x);
  own0_write_high(&s->x);
  atomic_store_explicit(&elsewhere, 10, memory_order_release);   /* (reads: an epoch of their own) */
  own0_read_low(&s->x);
  own0_read_high(&s->x);
  finished(s);
  return NULL;
}
FN void *u0(void *a) { struct scenario *s = a; await(s); s->x.half[1] = 9; return NULL; }

FN void own1_write_low(union pair *x) { x->half[0] = 1; }
FN void own1_write_high(union pair *x) { x->half[1] = 2; }
FN void own1_read_low(union pair *x) { KEEP(x->half[0]); }
FN void own1_read_high(union pair *x) { KEEP(x->half[1]); }
static void *t1(void *a) {
  struct scenario *s = a;
  publish(s);
  own1_write_low(&s->x);
  own1_write_high(&s->x);
  atomic_store_explicit(&elsewhere, 11, memory_order_release);   /* (reads: an epoch of their own) */
  own1_read_low(&s->x);
  atomic_store_explicit(&elsewhere, 1, memory_order_release);
  own1_read_high(&s->x);
  finished(s);
  return NULL;
}
FN void *u1(void *a) { struct scenario *s = a; await(s); s->x.half[1] = 9; return NULL; }

FN void own2_write_low(union pair *x) { x->half[0] = 1; }
FN void own2_write_high(union pair *x) { x->half[1] = 2; }
FN void own2_read_low(union pair *x) { KEEP(x->half[0]); }
FN void own2_read_high(union pair *x) { KEEP(x->half[1]); }
static void *t2(void *a) {
  struct scenario *s = a;
  own2_write_low(&s->x);
  own2_write_high(&s->x);
  atomic_store_explicit(&elsewhere, 12, memory_order_release);   /* (reads: an epoch of their own) */
  own2_read_low(&s->x);
  publish(s);
  own2_read_high(&s->x);
  finished(s);
  return NULL;
}
FN void *u2(void *a) { struct scenario *s = a; await(s); s->x.half[1] = 9; return NULL; }

FN void own3_write_low(union pair *x) { x->half[0] = 1; }
FN void own3_write_high(union pair *x) { x->half[1] = 2; }
FN void own3_read_low(union pair *x) { KEEP(x->half[0]); }
FN void own3_read_high(union pair *x) { KEEP(x->half[1]); }
FN void own3_write_low_again(union pair *x) { x->half[0] = 3; }
static void *t3(void *a) {
  struct scenario *s = a;
  publish(s);
  own3_write_low(&s->x);
  own3_write_high(&s->x);
  atomic_store_explicit(&elsewhere, 13, memory_order_release);   /* (reads: an epoch of their own) */
  own3_read_low(&s->x);
  own3_read_high(&s->x);
  own3_write_low_again(&s->x);
  finished(s);
  return NULL;
}
FN void *u3(void *a) { struct scenario *s = a; await(s); s->x.half[1] = 9; return NULL; }

FN void own4_write_low(union pair *x) { x->half[0] = 1; }
FN void own4_write_high(union pair *x) { x->half[1] = 2; }
FN void own4_read_low(union pair *x) { KEEP(x->half[0]); }
FN void own4_read_high(union pair *x) { KEEP(x->half[1]); }
FN void own4_read_half(union pair *x, int i) { KEEP(x->half[i]); }
static int two;   /* 2, set by main: a trip count the compiler cannot unroll into two calls */
static void *t4(void *a) {
  struct scenario *s = a;
  publish(s);
  own4_write_low(&s->x);
  own4_write_high(&s->x);
  atomic_store_explicit(&elsewhere, 14, memory_order_release);   /* (reads: an epoch of their own) */
  own4_read_low(&s->x);
  atomic_store_explicit(&elsewhere, 1, memory_order_release);
  own4_read_high(&s->x);
  atomic_store_explicit(&elsewhere, 2, memory_order_release);
  for (int i = 0; i < two; i++)
    own4_read_half(&s->x, i);
  finished(s);
  return NULL;
}
FN void *u4(void *a) { struct scenario *s = a; await(s); s->x.half[1] = 9; return NULL; }

FN void own5_write_low(union pair *x) { x->half[0] = 1; }
FN void own5_write_high(union pair *x) { x->half[1] = 2; }
FN void own5_read_low(union pair *x) { KEEP(x->half[0]); }
FN void own5_read_high(union pair *x) { KEEP(x->half[1]); }
FN void own5_read_low_again(union pair *x) { KEEP(x->half[0]); }
static void *t5(void *a) {
  struct scenario *s = a;
  publish(s);
  own5_write_low(&s->x);
  own5_write_high(&s->x);
  atomic_store_explicit(&elsewhere, 15, memory_order_release);   /* (reads: an epoch of their own) */
  own5_read_low(&s->x);
  own5_read_high(&s->x);
  atomic_store_explicit(&elsewhere, 3, memory_order_release);
  own5_read_low_again(&s->x);
  finished(s);
  return NULL;
}
FN void *u5(void *a) { struct scenario *s = a; await(s); s->x.half[1] = 9; return NULL; }

int main(void) {
  static void *(*const t[])(void *) = { t0, t1, t2, t3, t4, t5 }, *(*const u[])(void *) = { u0, u1, u2, u3, u4, u5 };
  two = 2;
  run_scenarios(sc, t, u, 6);
  printf("%d\n", atomic_load(&elsewhere));
  return 0;
}
