// VERDICT: race
// LIB: lib/dlclose_plugin.c
// The library is opened twice. One thread writes its global; another closes one of the two handles, which leaves the library loaded, and writes the global, with nothing ordering the writes (an invisible flag only forces their order in time): a dlclose that unloads nothing leaves the library's history alone, and the race is reported.
// The library's path is the first argument (run_race_test.sh passes it).
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: in plugin_write
// CHECK: global 'plugin_counter'
// CHECK: #1 closer
#define _GNU_SOURCE
#include <pthread.h>
#include "dl_plugin.h"
#include "invisible_barrier.h"

static const char *lib_path;
static struct plugin first, second;
static ib_flag first_done;

static void *first_writer(void *arg) { (void)arg; first.write(1); ib_set(&first_done); return NULL; }

static void *closer(void *arg)
{
  (void)arg;
  ib_wait(&first_done);
  dlclose(second.handle);
  /* Still loaded (main holds the first handle), or the test shows nothing. */
  void *again = dlopen(lib_path, RTLD_NOW | RTLD_NOLOAD);
  if (!again)
    return (void *)1;
  dlclose(again);
  first.write(2);
  return NULL;
}

int main(int argc, char **argv)
{
  lib_path = plugin_path(argc, argv);
  first = plugin_open(lib_path);
  second = plugin_open(lib_path);
  if (!first.handle || !second.handle)
    return 3;
  pthread_t a, b;
  void *rb;
  pthread_create(&a, NULL, first_writer, NULL);
  pthread_create(&b, NULL, closer, NULL);
  pthread_join(a, NULL);
  pthread_join(b, &rb);
  if (rb) {
    fprintf(stderr, "%s: unloaded while a handle was still open\n", lib_path);
    return 3;
  }
  dlclose(first.handle);
  puts("done");
  return 0;
}
