// VERDICT: norace
// A small thread pool: a mutex/cv task queue, workers run tasks that write per-task heap results, main collects after shutdown.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NW 4
#define NTASK 64
struct task { int id; long *out; };
struct task *queue[NTASK];
int q_head, q_tail, shutting_down;
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t have_work = PTHREAD_COND_INITIALIZER;
long done_count;

static void *worker(void *arg)
{
  for (;;) {
    pthread_mutex_lock(&mu);
    while (q_head == q_tail && !shutting_down) pthread_cond_wait(&have_work, &mu);
    if (q_head == q_tail) { pthread_mutex_unlock(&mu); return NULL; }
    struct task *t = queue[q_head++];
    pthread_mutex_unlock(&mu);
    long r = 0;
    for (int i = 0; i <= t->id; i++) r += i;
    *t->out = r;                          /* each task owns its output slot */
    pthread_mutex_lock(&mu);
    done_count++;
    pthread_mutex_unlock(&mu);
    free(t);
  }
}

int main(void)
{
  pthread_t w[NW];
  long *results = calloc(NTASK, sizeof *results);
  for (int i = 0; i < NW; i++) pthread_create(&w[i], NULL, worker, NULL);
  for (int i = 0; i < NTASK; i++) {
    struct task *t = malloc(sizeof *t);
    t->id = i;
    t->out = &results[i];
    pthread_mutex_lock(&mu);
    queue[q_tail++] = t;
    pthread_cond_signal(&have_work);
    pthread_mutex_unlock(&mu);
  }
  pthread_mutex_lock(&mu);
  shutting_down = 1;
  pthread_cond_broadcast(&have_work);
  pthread_mutex_unlock(&mu);
  for (int i = 0; i < NW; i++) pthread_join(w[i], NULL);
  long s = 0;
  for (int i = 0; i < NTASK; i++) s += results[i];
  printf("%ld %ld\n", s, done_count);
  free(results);
  return done_count == NTASK && s == 43680 ? 0 : 1;
}
