// VERDICT: race
// After fork, the child starts two threads that race; the child reports the race and exits 66, the parent passes that status on.
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: global 'child_counter'
// CHECK: in child_second
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "invisible_barrier.h"

int child_counter;
ib_flag first_done, second_done;

static void *child_first(void *arg) { child_counter = 1; ib_set(&first_done); ib_wait(&second_done); return NULL; }
static void *child_second(void *arg) { ib_wait(&first_done); child_counter = 2; ib_set(&second_done); return NULL; }

int main(void)
{
  child_counter = 0;                    /* parent's own access, before the fork */
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0) return 3;
  if (pid == 0) {
    pthread_t a, b;
    pthread_create(&a, NULL, child_first, NULL);
    pthread_create(&b, NULL, child_second, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("child %d\n", child_counter);
    return 0;                            /* the runtime turns this into exit code 66 */
  }
  int status;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return 4;
  printf("parent: child exited %d\n", WEXITSTATUS(status));
  if (WEXITSTATUS(status) != 66) {
    fprintf(stderr, "parent: expected the child to report the race (exit 66)\n");
    return 5;
  }
  return 66;                             /* the parent itself is race-free: pass the child's verdict on */
}
