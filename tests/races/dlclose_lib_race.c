// VERDICT: race
// LIB: lib/dlclose_plugin.c
// Two threads write a loaded library's global with nothing ordering the writes (an invisible flag only forces their order in time): the library is instrumented too, and its accesses race as the program's own do. The library is then unloaded.
// The library's path is the first argument (run_race_test.sh passes it).
// CHECK: SUMMARY: Goldilocks: data race
// CHECK: in plugin_write
// CHECK: global 'plugin_counter'
// CHECK: Previous write
#include <pthread.h>
#include "dl_plugin.h"
#include "invisible_barrier.h"

static struct plugin plugin;
static ib_flag first_done;

static void *first_writer(void *arg) { (void)arg; plugin.write(1); ib_set(&first_done); return NULL; }
static void *second_writer(void *arg) { (void)arg; ib_wait(&first_done); plugin.write(2); return NULL; }

int main(int argc, char **argv)
{
  plugin = plugin_open(plugin_path(argc, argv));
  if (!plugin.handle)
    return 3;
  pthread_t a, b;
  pthread_create(&a, NULL, first_writer, NULL);
  pthread_create(&b, NULL, second_writer, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  dlclose(plugin.handle);
  puts("done");
  return 0;
}
