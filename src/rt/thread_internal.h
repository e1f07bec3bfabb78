/* Shared between the files of src/rt only (init.c, thread.c, location.c). */
#ifndef GOLDI_RT_THREAD_INTERNAL_H
#define GOLDI_RT_THREAD_INTERNAL_H

#include "rt.h"

/* Registers the registry's fork handlers (init, once). */
void goldi_rt_threads_init(void);
/* Creates T0 for the calling thread and makes it current (init, once). */
struct goldi_rt_thread *goldi_rt_thread_main_create(void);
/* Thread states created so far (= next tid). */
uint32_t goldi_rt_threads_created(void);

/* Facts kept about a thread whose state was freed; false if none. */
bool goldi_rt_thread_info_freed(goldi_tid_t tid, int *os_tid, goldi_tid_t *parent,
                                goldi_origin_t *create_origin);

/* report/ hooks (location.c). */
size_t goldi_rt_describe_location(uintptr_t addr, char *buf, size_t n, goldi_origin_t *alloc_origin);
bool goldi_rt_thread_info(goldi_tid_t tid, int *os_tid, bool *running, goldi_tid_t *parent,
                          goldi_origin_t *create_origin);

#endif
