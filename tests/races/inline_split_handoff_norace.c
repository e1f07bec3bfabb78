// VERDICT: norace
// Split inline records (docs/goldilocks.md "Inline records"): a producer fills the slots of a
// ring, a consumer reads each one after an acquire of "full" and hands it back with a release
// of "empty", and the producer refills it after acquiring that. Each slot's granule holds the
// producer's W and the consumer's R at once (a split record: W ordered before the read), the
// consumer's repeated reads take the lock-free path, and the producer's next write, ordered
// after them through "empty", turns it back into its own record. Nothing races.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#define SLOTS 64
#define ROUNDS 400

struct slot { long a, b; };
struct slot ring[SLOTS];
atomic_int full[SLOTS], empty[SLOTS];
long sum;

static void *producer(void *arg)
{
  (void)arg;
  for (int r = 0; r < ROUNDS; r++)
    for (int i = 0; i < SLOTS; i++) {
      if (r > 0)
        while (atomic_load_explicit(&empty[i], memory_order_acquire) != r)
          ;
      ring[i].a = r * 1000 + i;
      ring[i].b = ring[i].a ^ 0x5a;
      atomic_store_explicit(&full[i], r + 1, memory_order_release);
    }
  return NULL;
}

static void *consumer(void *arg)
{
  (void)arg;
  long s = 0;
  for (int r = 0; r < ROUNDS; r++)
    for (int i = 0; i < SLOTS; i++) {
      while (atomic_load_explicit(&full[i], memory_order_acquire) != r + 1)
        ;
      for (int k = 0; k < 3; k++)   /* repeated reads: the R owner's lock-free path */
        s += ring[i].a + (ring[i].b & 1) + k;
      atomic_store_explicit(&empty[i], r + 1, memory_order_release);
    }
  sum = s;
  return NULL;
}

int main(void)
{
  pthread_t p, c;
  pthread_create(&p, NULL, producer, NULL);
  pthread_create(&c, NULL, consumer, NULL);
  pthread_join(p, NULL);
  pthread_join(c, NULL);
  printf("%ld\n", sum);
  return 0;
}
