/* shm_segment.h — private System V segments for the shm tests (shm_*.c,
 * shmdt_*.c). Each is marked for removal as soon as it is attached, so it
 * goes away with its last detach or with the process: no segment outlives a
 * test, even one that fails or crashes.
 *
 * Usage: int id = shm_new(len); char *p = shm_attached(id, shmat(id, addr, flags));
 */
#ifndef RACES_SHM_SEGMENT_H
#define RACES_SHM_SEGMENT_H

#include <stddef.h>
#include <sys/ipc.h>
#include <sys/shm.h>

/* A new private segment of len bytes; -1 on failure (the attach then fails). */
static inline int shm_new(size_t len) { return shmget(IPC_PRIVATE, len, IPC_CREAT | 0600); }

/* p, which attaching segment id just returned, or NULL if that failed. */
static inline char *shm_attached(int id, void *p)
{
  shmctl(id, IPC_RMID, NULL);
  return p == (void *)-1 ? NULL : p;
}

#endif
