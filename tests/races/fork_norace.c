// VERDICT: norace
// After fork, parent and child each run mutex-protected threads on their own copy of a global; separate processes never race.
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

long counter;
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg)
{
  for (int i = 0; i < 500; i++) { pthread_mutex_lock(&mu); counter++; pthread_mutex_unlock(&mu); }
  return NULL;
}

static long run_two(void)
{
  pthread_t a, b;
  pthread_create(&a, NULL, worker, NULL);
  pthread_create(&b, NULL, worker, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return counter;
}

int main(void)
{
  counter = 1000;
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0) return 3;
  if (pid == 0) return run_two() == 2000 ? 0 : 1;
  long mine = run_two();
  int status;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return 4;
  printf("parent %ld, child exit %d\n", mine, WEXITSTATUS(status));
  return mine == 2000 && WEXITSTATUS(status) == 0 ? 0 : 1;
}
