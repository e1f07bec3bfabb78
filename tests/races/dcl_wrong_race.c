// VERDICT: race
// Broken double-checked locking: the unlocked fast-path check reads the instance pointer with a plain load.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'instance'
// CHECK: in get_instance
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "invisible_barrier.h"

struct singleton { int value; };
struct singleton *instance;
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
ib_flag first_got, second_got;

__attribute__((noinline)) struct singleton *get_instance(void)
{
  if (!instance) {                       /* unprotected read */
    pthread_mutex_lock(&mu);
    if (!instance) {
      struct singleton *s = malloc(sizeof *s);
      s->value = 42;
      instance = s;
    }
    pthread_mutex_unlock(&mu);
  }
  return instance;
}

static void *first(void *arg) { long v = get_instance()->value; ib_set(&first_got); ib_wait(&second_got); return (void *)v; }
static void *second(void *arg) { ib_wait(&first_got); long v = get_instance()->value; ib_set(&second_got); return (void *)v; }

int main(void)
{
  pthread_t a, b;
  void *v1, *v2;
  pthread_create(&a, NULL, first, NULL);
  pthread_create(&b, NULL, second, NULL);
  pthread_join(a, &v1);
  pthread_join(b, &v2);
  printf("%ld %ld\n", (long)v1, (long)v2);
  free(instance);
  return 0;
}
