// VERDICT: race
// Two workers write the same byte of an anonymous mapping made by main, unordered: a mapping's fresh lifetime starts at mmap, and races inside it are still reported.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: in writer
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include "invisible_barrier.h"

static char *page;
static ib_barrier both;

static void *writer(void *arg)
{
  ib_barrier_wait(&both, 2);
  page[64] = (char)(long)arg;
  return NULL;
}

int main(void)
{
  page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED)
    return 3;
  pthread_t a, b;
  pthread_create(&a, NULL, writer, (void *)1);
  pthread_create(&b, NULL, writer, (void *)2);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("%d\n", page[64] == 1 || page[64] == 2);
  munmap(page, 4096);
  return 0;
}
