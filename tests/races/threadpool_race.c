// VERDICT: race
// Thread pool whose tasks all bump one global statistic outside the queue lock.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'tasks_run'
// CHECK: in run_task
#include <pthread.h>
#include <stdio.h>
#include "invisible_barrier.h"

#define NW 2
int queue[8];
int q_head, q_tail, shutting_down;
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t have_work = PTHREAD_COND_INITIALIZER;
long tasks_run;
ib_barrier both_took_one;

__attribute__((noinline)) void run_task(int id)
{
  tasks_run++;                            /* the bug: shared, unlocked */
}

static void *worker(void *arg)
{
  int first = 1;
  for (;;) {
    pthread_mutex_lock(&mu);
    while (q_head == q_tail && !shutting_down) pthread_cond_wait(&have_work, &mu);
    if (q_head == q_tail) { pthread_mutex_unlock(&mu); return NULL; }
    int id = queue[q_head++];
    pthread_mutex_unlock(&mu);
    if (first) { ib_barrier_wait(&both_took_one, NW); first = 0; }   /* both workers hold a task */
    run_task(id);
  }
}

int main(void)
{
  pthread_t w[NW];
  pthread_mutex_lock(&mu);
  for (int i = 0; i < 2; i++) queue[q_tail++] = i;   /* one task per worker, enqueued before they start */
  shutting_down = 1;
  pthread_mutex_unlock(&mu);
  for (int i = 0; i < NW; i++) pthread_create(&w[i], NULL, worker, NULL);
  for (int i = 0; i < NW; i++) pthread_join(w[i], NULL);
  printf("%ld\n", tasks_run);
  return 0;
}
