// VERDICT: norace
// Split inline records from a read of part of another thread's write: the producer writes
// both 4-byte halves of a granule in one statement, the consumer acquires the producer's
// release and reads the low half (checked against the producer's W, found ordered: a split
// record with W on all 8 bytes and R on 4), then the high half on the lock-free path. Every
// read is ordered after the write: nothing to report.
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

union pair { uint64_t whole; uint32_t half[2]; };
union pair x;
atomic_int ready;
uint64_t seen;

static void *producer(void *arg)
{
  (void)arg;
  x.whole = 0x0000000700000005ull;
  atomic_store_explicit(&ready, 1, memory_order_release);
  return NULL;
}

static void *consumer(void *arg)
{
  (void)arg;
  while (!atomic_load_explicit(&ready, memory_order_acquire))
    ;
  uint64_t s = 0;
  for (int k = 0; k < 4; k++) {
    s += x.half[0];
    __asm__ volatile("" ::: "memory");   /* the low half is read first */
    s += 3u * x.half[1] + (unsigned)k;
  }
  seen = s;
  return NULL;
}

int main(void)
{
  pthread_t p, c;
  pthread_create(&p, NULL, producer, NULL);
  pthread_create(&c, NULL, consumer, NULL);
  pthread_join(p, NULL);
  pthread_join(c, NULL);
  printf("%llu\n", (unsigned long long)seen);
  return 0;
}
