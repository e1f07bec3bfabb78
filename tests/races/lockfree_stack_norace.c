// VERDICT: norace
// Treiber stack: producers push heap nodes with CAS(release), one consumer pops with CAS(acquire) and reads the node payloads.
// Nodes are freed only after all threads are joined, so there is no ABA and no reclamation problem.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define PER 200
struct node { struct node *next; long value; long check; };
_Atomic(struct node *) top;
struct node *all_nodes[3 * PER];
atomic_int n_nodes;

static void push(struct node *n)
{
  struct node *old = atomic_load_explicit(&top, memory_order_relaxed);
  do n->next = old;
  while (!atomic_compare_exchange_weak_explicit(&top, &old, n, memory_order_release, memory_order_relaxed));
}

static struct node *pop(void)
{
  struct node *old = atomic_load_explicit(&top, memory_order_acquire);
  while (old && !atomic_compare_exchange_weak_explicit(&top, &old, old->next, memory_order_acquire, memory_order_acquire)) { }
  return old;
}

static void *producer(void *arg)
{
  for (long i = 0; i < PER; i++) {
    struct node *n = malloc(sizeof *n);
    n->value = (long)arg * 1000 + i;
    n->check = -n->value;
    all_nodes[atomic_fetch_add_explicit(&n_nodes, 1, memory_order_relaxed)] = n;
    push(n);
  }
  return NULL;
}

static void *consumer(void *arg)
{
  long got = 0, bad = 0;
  while (got < 3 * PER) {
    struct node *n = pop();
    if (!n) continue;
    bad += n->value != -n->check;
    n->check = 0;                        /* the consumer owns the node now */
    got++;
  }
  return (void *)bad;
}

int main(void)
{
  pthread_t p[3], c;
  void *bad;
  pthread_create(&c, NULL, consumer, NULL);
  for (long i = 0; i < 3; i++) pthread_create(&p[i], NULL, producer, (void *)i);
  for (int i = 0; i < 3; i++) pthread_join(p[i], NULL);
  pthread_join(c, &bad);
  for (int i = 0; i < 3 * PER; i++) free(all_nodes[i]);
  printf("bad=%ld\n", (long)bad);
  return bad == NULL ? 0 : 1;
}
