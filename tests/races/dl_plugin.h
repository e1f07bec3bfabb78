/* dl_plugin.h — the library of the dlclose tests (dlclose_*.c):
 * lib/dlclose_plugin.c, which run_race_test.sh builds for their // LIB: line
 * and passes as the program's first argument.
 *
 * Usage: const char *path = plugin_path(argc, argv);
 *        struct plugin p = plugin_open(path);  p.write(v) stores v in *p.global
 */
#ifndef RACES_DL_PLUGIN_H
#define RACES_DL_PLUGIN_H

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

struct plugin {
  void *handle;         /* NULL: the library or a symbol was not found */
  void (*write)(int);   /* plugin_write */
  int *global;          /* plugin_counter, the global plugin_write writes */
};

/* The library's path (argv[1]); without one, exits with a usage message. */
static inline const char *plugin_path(int argc, char **argv)
{
  if (argc < 2) {
    fprintf(stderr, "usage: %s LIBRARY\n", argv[0]);
    exit(2);
  }
  return argv[1];
}

/* Loads the library (or takes one more reference to it) and finds its
 * symbols; says why on stderr when it cannot. */
static inline struct plugin plugin_open(const char *path)
{
  struct plugin p = { dlopen(path, RTLD_NOW | RTLD_LOCAL), NULL, NULL };
  if (p.handle) {
    p.write = (void (*)(int))dlsym(p.handle, "plugin_write");
    p.global = dlsym(p.handle, "plugin_counter");
  }
  if (!p.write || !p.global) {
    fprintf(stderr, "%s: %s\n", path, p.handle ? "symbols missing" : dlerror());
    p.handle = NULL;
  }
  return p;
}

#endif
