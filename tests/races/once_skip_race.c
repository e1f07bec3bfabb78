// VERDICT: race
// One thread initialises through pthread_once, another reads the initialised data without calling pthread_once.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'config'
// CHECK: in impatient
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

pthread_once_t once = PTHREAD_ONCE_INIT;
int config;
ib_flag initialised, done;

static void init_config(void) { config = 99; }

static void *polite(void *arg) { pthread_once(&once, init_config); ib_set(&initialised); ib_wait(&done); return NULL; }
static void *impatient(void *arg) { ib_wait(&initialised); long v = config; ib_set(&done); return (void *)v; }

int main(void)
{
  pthread_t a, b;
  void *v;
  pthread_create(&a, NULL, polite, NULL);
  pthread_create(&b, NULL, impatient, NULL);
  pthread_join(a, NULL);
  pthread_join(b, &v);
  printf("%ld\n", (long)v);
  return 0;
}
