// VERDICT: norace
// Multiset's nodes, in small: a node's granule holds a 4-byte key (read by every walk) and
// a 4-byte count (written by inserts and deletes, read by lookups), always under the
// bucket's mutex, by three threads in turn. A walk's read of the key finds the count's W
// of another thread on the other half, ordered by the mutex (goldilocks: a split record
// without a check of that W). Then every thread again, without the mutex, each after a
// barrier: the order is then only known from walks. Nothing is ever unordered.
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#define NODES 16
#define THREADS 3
#define ROUNDS 200

struct node { uint32_t key, count; };
static struct node nodes[NODES] __attribute__((aligned(8)));
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t barrier;
static uint64_t sums[THREADS];
static int rounds = ROUNDS;   /* (set at run time: the loops stay loops) */

static __attribute__((noinline)) uint32_t walk_key(int i) { return nodes[i].key; }
static __attribute__((noinline)) uint32_t lookup_count(int i) { return nodes[i].count; }
static __attribute__((noinline)) void bump_count(int i) { nodes[i].count++; }

static void *worker(void *arg)
{
  int me = (int)(intptr_t)arg;
  uint64_t sum = 0;
  for (int r = 0; r < rounds; r++) {
    int k = (r * 7 + me * 5) % NODES;
    pthread_mutex_lock(&lock);
    for (int i = 0; i <= k; i++)   /* a walk up to the node */
      sum += walk_key(i);
    if ((r + me) % 3 == 0)
      bump_count(k);
    else
      sum += lookup_count(k);
    pthread_mutex_unlock(&lock);
  }
  for (int p = 0; p < THREADS; p++) {   /* one thread a phase, no mutex */
    pthread_barrier_wait(&barrier);
    if (p != me)
      continue;
    for (int i = 0; i < NODES; i++) {
      sum += walk_key(i);
      if (i % 2 == me % 2)
        bump_count(i);
    }
  }
  sums[me] = sum;
  return NULL;
}

int main(void)
{
  pthread_t t[THREADS];
  pthread_barrier_init(&barrier, NULL, THREADS);
  for (int i = 0; i < NODES; i++)
    nodes[i].key = (uint32_t)i;
  for (int i = 0; i < THREADS; i++)
    pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
  uint64_t sum = 0;
  for (int i = 0; i < THREADS; i++) {
    pthread_join(t[i], NULL);
    sum += sums[i];
  }
  for (int i = 0; i < NODES; i++)
    sum += nodes[i].count;
  printf("%llu\n", (unsigned long long)sum);
  return 0;
}
