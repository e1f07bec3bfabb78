// VERDICT: norace
// Writers update under the write lock, readers read under the read lock, in any interleaving.
#include <pthread.h>
#include <stdio.h>

long balance;
pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;

static void *writer(void *arg)
{
  for (int i = 0; i < 300; i++) {
    pthread_rwlock_wrlock(&rw);
    balance += 2;
    pthread_rwlock_unlock(&rw);
  }
  return NULL;
}

static void *reader(void *arg)
{
  long odd = 0;
  for (int i = 0; i < 300; i++) {
    pthread_rwlock_rdlock(&rw);
    odd += balance & 1;
    pthread_rwlock_unlock(&rw);
  }
  return (void *)odd;
}

int main(void)
{
  pthread_t t[4];
  void *(*fn[4])(void *) = {writer, writer, reader, reader};
  long odd = 0;
  for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, fn[i], NULL);
  for (int i = 0; i < 4; i++) { void *r; pthread_join(t[i], &r); odd += (long)r; }
  printf("balance=%ld odd=%ld\n", balance, odd);
  return balance == 1200 && odd == 0 ? 0 : 1;
}
