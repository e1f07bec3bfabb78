// VERDICT: norace
// A page mapped, written and unmapped by one thread, then mapped again at the same address and written by another, with no happens-before between them: the second mapping is new memory, so the writes do not race (munmap and mmap end and start a lifetime, as free and malloc do).
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include "invisible_barrier.h"

#define LEN 8192
static char *base;
static ib_flag unmapped;

static void *first(void *arg)
{
  (void)arg;
  char *p = mmap(base, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  if (p == MAP_FAILED)
    return (void *)1;
  p[0] = 1;
  memset(p + 4096, 7, 64);
  munmap(p, LEN);
  ib_set(&unmapped);
  return NULL;
}

static void *second(void *arg)
{
  (void)arg;
  ib_wait(&unmapped);
  char *q = mmap(base, LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
  if (q == MAP_FAILED)
    return (void *)1;
  q[0] = 2;
  q[4096 + 8] = 3;
  int sum = q[0] + q[4096 + 8] + q[4096];
  munmap(q, LEN);
  return (void *)(long)(sum != 5);
}

int main(void)
{
  /* An address no one else maps meanwhile: reserve it, then give it back. */
  base = mmap(NULL, LEN, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED)
    return 3;
  pthread_t a, b;
  void *ra, *rb;
  pthread_create(&b, NULL, second, NULL);
  pthread_create(&a, NULL, first, NULL);
  pthread_join(a, &ra);
  pthread_join(b, &rb);
  if (ra || rb) {
    fprintf(stderr, "mmap failed or wrong contents\n");
    return 3;
  }
  puts("ok");
  return 0;
}
