// VERDICT: norace
// LIB: lib/dlclose_plugin.c
// One thread loads a library, writes its global and unloads it (dlclose); another then loads it again, at the same address (a reload that lands elsewhere is unloaded and the pair tried again), and writes the global, with no happens-before between the threads (the loader's lock is internal to the C library, no detector sees it): the reloaded library's global is new memory, so the writes do not race.
// The library's path is the first argument (run_race_test.sh passes it).
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include "dl_plugin.h"
#include "invisible_barrier.h"

/* The loader nearly always puts the reload where the first load was; now
 * and then (1 run in 150 here) a mapping the runtime makes in between takes
 * that range, and the pair is tried again. */
#define ATTEMPTS 20

enum outcome { OK, LOAD_FAILED, STILL_LOADED, MOVED };

static const char *lib_path;
/* Handed from one thread to the other with relaxed atomics, which neither
 * race nor synchronise: the global's address in the first load, and how
 * each side's attempt went. */
static _Atomic uintptr_t first_address;
static _Atomic int unloaded_outcome, reloaded_outcome;
/* Attempt k: unloaded reaches k once the first load is gone, reloaded once
 * the reload is checked (and written). */
static ib_flag unloaded, reloaded;

/* Loads the library, writes its global and unloads the library. */
static enum outcome load_write_unload(void)
{
  struct plugin p = plugin_open(lib_path);
  if (!p.handle)
    return LOAD_FAILED;
  p.write(1);
  atomic_store_explicit(&first_address, (uintptr_t)p.global, memory_order_relaxed);
  dlclose(p.handle);
  /* Unloaded, not only released: RTLD_NOLOAD finds no loaded copy. */
  return dlopen(lib_path, RTLD_NOW | RTLD_NOLOAD) ? STILL_LOADED : OK;
}

/* Loads the library again; where the first load was, writes its global
 * (and keeps it loaded), elsewhere unloads it for another attempt. */
static enum outcome reload_write(void)
{
  struct plugin p = plugin_open(lib_path);
  if (!p.handle)
    return LOAD_FAILED;
  if ((uintptr_t)p.global != atomic_load_explicit(&first_address, memory_order_relaxed)) {
    dlclose(p.handle);
    return MOVED;
  }
  p.write(2);
  return *p.global == 2 ? OK : LOAD_FAILED;
}

static void *unloader(void *arg)
{
  (void)arg;
  for (int k = 1; k <= ATTEMPTS; k++) {
    enum outcome r = load_write_unload();
    atomic_store_explicit(&unloaded_outcome, r, memory_order_relaxed);
    ib_set(&unloaded);
    /* Alive until the reload is done: this thread's exit must not free
     * memory the loader could prefer to the library's old range. */
    ib_wait_ge(&reloaded, k);
    if (r != OK || atomic_load_explicit(&reloaded_outcome, memory_order_relaxed) != MOVED)
      break;
  }
  return NULL;
}

static void *reloader(void *arg)
{
  (void)arg;
  for (int k = 1; k <= ATTEMPTS; k++) {
    ib_wait_ge(&unloaded, k);
    enum outcome r = LOAD_FAILED;
    if (atomic_load_explicit(&unloaded_outcome, memory_order_relaxed) == OK)
      r = reload_write();
    atomic_store_explicit(&reloaded_outcome, r, memory_order_relaxed);
    ib_set(&reloaded);
    if (r != MOVED)
      break;
  }
  return NULL;
}

int main(int argc, char **argv)
{
  lib_path = plugin_path(argc, argv);
  pthread_t a, b;
  pthread_create(&b, NULL, reloader, NULL);
  pthread_create(&a, NULL, unloader, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  static const char *const what[] = {
    [OK] = "ok",
    [LOAD_FAILED] = "cannot load the library or find its symbols",
    [STILL_LOADED] = "dlclose did not unload the library",
    [MOVED] = "reloaded at another address in every attempt: the test shows nothing",
  };
  enum outcome r = atomic_load_explicit(&unloaded_outcome, memory_order_relaxed);
  if (r == OK)
    r = atomic_load_explicit(&reloaded_outcome, memory_order_relaxed);
  if (r != OK) {
    fprintf(stderr, "%s: %s\n", lib_path, what[r]);
    return 3;
  }
  puts("ok");
  return 0;
}
