// VERDICT: race
// T1 reads s.b under m, releases m, then reads s.b again; T2 acquires m after that and writes s.b. The write is ordered after T1's first read (through m) but not after its second: a race. The atomic field next to b keeps their granule in goldilocks' general representation, where T1's second read replaces its own record of the first in place (records_moved); a record that kept the first read's position would hide the race.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include "invisible_barrier.h"

struct pair {
  atomic_int a;
  int b;
} s;
pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
ib_flag read_twice;

static void *reader(void *arg)
{
  pthread_mutex_lock(&m);
  long v = s.b;
  pthread_mutex_unlock(&m);
  v += s.b;
  ib_set(&read_twice);
  return (void *)v;
}

static void *writer(void *arg)
{
  ib_wait(&read_twice);
  pthread_mutex_lock(&m);
  s.b = 7;
  pthread_mutex_unlock(&m);
  return NULL;
}

int main(void)
{
  pthread_t a, b;
  void *v;
  atomic_store(&s.a, 1);
  s.b = 1;
  pthread_create(&a, NULL, reader, NULL);
  pthread_create(&b, NULL, writer, NULL);
  pthread_join(a, &v);
  pthread_join(b, NULL);
  printf("%ld %d %d\n", (long)v, atomic_load(&s.a), s.b);
  return (long)v == 2 ? 0 : 3;
}
