/* Lifetimes of mapped memory (mmap.c), shared with the other interceptors
 * that map and unmap: shmat and shmdt (shm.c) attach and detach as mmap and
 * munmap map and unmap; dlclose (dl.c) unmaps the object it unloads. */
#ifndef GOLDI_INTERCEPT_MAPPING_H
#define GOLDI_INTERCEPT_MAPPING_H

#include "intercept.h"

/* The thread to emit for: none before the runtime is up (nothing was
 * recorded yet) or inside it. */
GOLDI_INLINE struct goldi_rt_thread *goldi_icpt_map_thread(void) {
    struct goldi_rt_thread *t = goldi_cur;
    return t && !t->in_rt && goldi_rt_initialized() ? t : NULL;
}

/* The page-rounded length of [addr, addr+len), 0 if the kernel would refuse
 * it (an unaligned address, or a length of 0). */
size_t goldi_icpt_page_span(uintptr_t addr, size_t len);

/* [addr, addr+n) was just mapped: a fresh lifetime. */
void goldi_icpt_mapped(struct goldi_rt_thread *t, uintptr_t addr, size_t n, uintptr_t pc);
/* [addr, addr+n) is about to be unmapped: its lifetime ends (FREE, a write
 * of the parts that hold state), and its shadow goes back to the system. */
void goldi_icpt_unmapping(struct goldi_rt_thread *t, uintptr_t addr, size_t n, uintptr_t pc);
/* [addr, addr+n) was unmapped by a call that tells only after it (an mremap
 * that moved, a dlclose that unloaded): a fresh lifetime (ALLOC: nothing is
 * checked, the unmapping can no longer be), and its shadow goes back. */
void goldi_icpt_unmapped(struct goldi_rt_thread *t, uintptr_t addr, size_t n, uintptr_t pc);

/* [addr, addr+n) is being unmapped, or was just mapped over, by a call
 * other than shmdt: the System V attachments there end (shm.c). */
void goldi_icpt_attachments_forget(uintptr_t addr, size_t n);

#endif
