// VERDICT: race
// A granule whose two kinds each hold two histories of two pos, one per half, folded back
// from the general rule (goldilocks: the half record takes one kind's two pos; the other
// kind can be its dual kind only with one pos, two origins — inl_dualo_add's same-pos
// test). Thread T, one granule:
//   write low (epoch 1), release; write high, read low (epoch 2), release; read high (epoch 3).
// Its read of high cannot be held by the owner's path (both kinds two pos): the general
// rule runs, and must keep that read's epoch 3. Thread C acquires T's second release (it is
// ordered after epochs 1 and 2, not 3), waits for T (no happens-before) and writes high:
// it races with T's read of high. Recorded with the pos of T's read of low (epoch 2), that
// read would look ordered before C's write, and the race would be missed.
// CHECK: #0 twopos_read_high
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include "invisible_barrier.h"

union pair { uint64_t whole; uint32_t half[2]; };
static union pair x;
static atomic_int first_done, second_done;
static ib_flag t_done;
static uint64_t seen;
#define FN static __attribute__((noinline))

FN void twopos_write_low(void) { x.half[0] = 1; }
FN void twopos_write_high(void) { x.half[1] = 2; }
FN void twopos_read_low(void) { seen += x.half[0]; }
FN void twopos_read_high(void) { seen += x.half[1]; }
FN void twopos_c_write_high(void) { x.half[1] = 9; }

static void *t_main(void *p) {
  (void)p;
  twopos_write_low();
  atomic_store_explicit(&first_done, 1, memory_order_release);
  twopos_write_high();
  twopos_read_low();
  atomic_store_explicit(&second_done, 1, memory_order_release);
  twopos_read_high();
  ib_set(&t_done);
  return NULL;
}

static void *c_main(void *p) {
  (void)p;
  while (!atomic_load_explicit(&second_done, memory_order_acquire))
    ;
  ib_wait(&t_done);
  twopos_c_write_high();
  return NULL;
}

int main(void) {
  pthread_t t, c;
  pthread_create(&t, NULL, t_main, NULL);
  pthread_create(&c, NULL, c_main, NULL);
  pthread_join(t, NULL);
  pthread_join(c, NULL);
  printf("%llu\n", (unsigned long long)(x.whole + seen + (uint64_t)atomic_load(&first_done)));
  return 0;
}
