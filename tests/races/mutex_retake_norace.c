// VERDICT: norace
// Deferred release cells (docs/goldilocks.md): t1 reads and writes x and a
// node's fields in four critical sections of L in a row (each retake resumes
// the deferred release: the repeats are kept records of one epoch), and
// then stays quiet while t2 takes L: t2's lock must append t1's deferred
// cell for it, so t2's reads and writes after its critical section, with
// no lock (no alock to short-circuit), are ordered after all of t1's. A
// lost cell would be a false alarm here.
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

struct node { struct node *next; unsigned key, count; };
struct node n1, n2 = { 0, 7, 1 };
int x;
pthread_mutex_t L = PTHREAD_MUTEX_INITIALIZER;
ib_flag t1_done, t2_done;

static void *t1(void *arg)
{
  for (int i = 0; i < 4; i++) {
    pthread_mutex_lock(&L);
    x += i;
    n1.next = &n2;
    n1.key = (unsigned)i;
    for (struct node *n = &n1; n; n = n->next)
      n->count += n->key;
    pthread_mutex_unlock(&L);
  }
  ib_set(&t1_done);
  ib_wait(&t2_done);   /* (no access of t1 before t2 has taken L) */
  return NULL;
}

static void *t2(void *arg)
{
  ib_wait(&t1_done);
  pthread_mutex_lock(&L);
  x++;
  pthread_mutex_unlock(&L);
  x++;
  unsigned s = 0;
  for (struct node *n = &n1; n; n = n->next) {
    s += n->key + n->count;
    n->count = 0;
  }
  ib_set(&t2_done);
  return (void *)(long)s;
}

int main(void)
{
  pthread_t a, b;
  void *r;
  pthread_create(&a, NULL, t1, NULL);
  pthread_create(&b, NULL, t2, NULL);
  pthread_join(a, NULL);
  pthread_join(b, &r);
  printf("%d %ld\n", x, (long)r);
  return 0;
}
