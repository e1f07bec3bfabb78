/* On-disk format of binary Goldilocks traces (`goldi record`, `goldi convert`),
 * version 1. This header is the specification: writer.c and reader.c follow
 * it, docs/traces.md explains it. Freestanding (no libc): the runtime
 * includes it. Every multi-byte fixed-width field is little-endian.
 *
 *   file    := file_header chunk*
 *   file_header (16 bytes)
 *     0  char[8]  magic "GOLDITRC"
 *     8  u16      version (GOLDI_TRC_VERSION)
 *    10  u16      header size (16)
 *    12  u32      reserved, 0
 *   chunk := chunk_header payload
 *   chunk_header (32 bytes)
 *     0  u8       type     (enum goldi_trc_chunk)
 *     1  u8       codec    (0 raw, 1 zstd frame)
 *     2  u16      reserved, 0
 *     4  u32      raw_len  payload bytes after decompression (<= GOLDI_TRC_MAX_RAW)
 *     8  u32      stored_len  payload bytes in the file
 *    12  u32      check    FNV-1a 32 over header bytes [0,12) + [16,32) + stored payload
 *    16  u32      tid      THREAD chunks: the thread; else 0
 *    20  u32      n_records THREAD chunks: records in the payload; else 0
 *    24  u64      first_seq THREAD chunks: sequence number of the first event; else 0
 *
 * Chunks: one META first (process: pid, exe path, tool); MODULES (loaded
 * objects: path, load bias, PT_LOAD ranges: `goldi analyze` symbolizes the
 * recorded program with them); THREAD chunks (records of one thread, in that
 * thread's order; a thread's chunks appear in the file in its order); NAMES
 * (names of synthetic objects of converted traces); END last (counts). A file
 * without END is truncated (the program died before exit): rejected unless
 * the reader is asked for a partial trace.
 *
 * Global order: every event carries a sequence number taken from one global
 * atomic counter while the dispatcher delivers it (accesses: at their first
 * granule piece, under that granule's lock; other events: in on_event, i.e.
 * after a lock was acquired / before it is released, inside an atomic's
 * critical section). So the sequence order extends the order in which the
 * runtime dispatched conflicting accesses and every synchronization order;
 * the reader merges the per-thread streams by sequence number.
 *
 * THREAD payload: n_records records, each  head [seq] [origin] body
 *   head u8: bits 0-4 op (0..23 = event kind as numbered below, 24 DEF_ORIGIN,
 *            25 THREAD_INFO); bit 5 SEQ_NEXT: seq = previous seq + 1 (else a
 *            varint delta >= 1 follows; the first event's "previous" is
 *            first_seq - 1); bit 6 SAME_ORIGIN: origin as the previous event
 *            of the chunk (else a varint origin id follows); bit 7 must be 0.
 *            DEF_ORIGIN and THREAD_INFO records carry neither seq nor origin.
 *   Delta state (reset at every chunk): prev_seq, prev_origin, prev_addr
 *   (accesses, alloc/free), prev_sync (sync object addresses).
 *   Numbers are LEB128 varints (u) or zigzag varints (z); u8 is one byte.
 *   body by op:
 *     FORK, JOIN          u other tid
 *     EXIT                -
 *     LOCK_ACQ, LOCK_REL  sync, u8 mode
 *     WAIT_ENTER/EXIT     sync (condvar), sync (mutex)
 *     SIGNAL, BROADCAST, SEM_POST, SEM_WAIT, ONCE_DONE, ONCE_RET   sync
 *     BAR_ARRIVE/DEPART   sync, u gen, u bar_count
 *     ATOMIC_*            z addr-prev_addr, u size, u8 mo, z obj_addr-addr, u8 kind, u tok0 [u tok1]
 *     FENCE               u8 mo
 *     READ, WRITE         z addr-prev_addr, u size<<1 | range
 *     ALLOC, FREE         z addr-prev_addr, u size
 *     sync := z addr-prev_sync, u8 kind (enum goldi_sync_kind), u tok0 [u tok1 if
 *             kind is RWLOCK or BARRIER]. tokN are the recording process's
 *             token ids: a change tells the reader the object started a new
 *             life (init/destroy/free), so the replay resets it too.
 *     DEF_ORIGIN          u id, u tid, u size, u flags, u n_frames, frames as
 *                         z deltas (first from 0), u n_held, per lock z delta
 *                         address + u8 mode. Precedes the first event using id
 *                         in every thread's stream that uses it (origins name
 *                         no thread: threads running the same code share them);
 *                         tid is the stream's thread, and every definition of
 *                         one id has the same frames. An event whose origin its
 *                         own stream has not defined yet makes the file corrupt.
 *     THREAD_INFO         u parent+1 (0 none), u os_tid, u stack_lo, u stack_len,
 *                         u tls_lo, u tls_len. The first record of a thread.
 *   An event's origin is the recording process's goldi_event_origin(ev): the
 *   replay rebuilds the thread's shadow stack from its frames, so engines
 *   intern the same (stack, locks, size, kind) and reports print the same
 *   stacks.
 *
 * META:    u pid, s exe_path, s tool           (s := u length, bytes)
 * MODULES: u n, per module: s path, u bias, u n_ranges, per range u start, u len
 *          (start is absolute; a path "" is the main executable = exe_path)
 * NAMES:   u n, per name: u8 kind (enum goldi_trace_name_kind), u key, s name
 * END:     u n_threads, u n_events, u n_chunks, u n_dropped
 */
#ifndef GOLDI_TRACE_FORMAT_H
#define GOLDI_TRACE_FORMAT_H

#include "../base/base.h"

#define GOLDI_TRC_MAGIC "GOLDITRC"
#define GOLDI_TRC_VERSION 1
#define GOLDI_TRC_FILE_HEADER 16u
#define GOLDI_TRC_CHUNK_HEADER 32u
#define GOLDI_TRC_MAX_RAW (16u << 20)      /* largest chunk payload, decompressed */
#define GOLDI_TRC_MAX_TID (1u << 22)       /* tids are dense: more is a corrupt file */
#define GOLDI_TRC_MAX_ADDR (1ull << 56)    /* addresses (and addr+size) stay below */
#define GOLDI_TRC_MAX_ACCESS (1u << 30)    /* bytes per access / alloc / free event */
#define GOLDI_TRC_MAX_FRAMES 64            /* frames per origin (origin depot keeps 64) */
#define GOLDI_TRC_MAX_HELD 32              /* held locks per origin */

enum goldi_trc_chunk {
    GOLDI_TRC_META = 1,
    GOLDI_TRC_MODULES = 2,
    GOLDI_TRC_THREAD = 3,
    GOLDI_TRC_NAMES = 4,
    GOLDI_TRC_END = 5,
};

enum goldi_trc_codec { GOLDI_TRC_RAW = 0, GOLDI_TRC_ZSTD = 1 };

/* On-disk op numbers: the event kinds of event.inc at version 1 (writer.c
 * static_asserts that event.inc still numbers them so). */
enum goldi_trc_op {
    GOLDI_TRC_OP_FORK = 0, GOLDI_TRC_OP_EXIT, GOLDI_TRC_OP_JOIN, GOLDI_TRC_OP_LOCK_ACQ,
    GOLDI_TRC_OP_LOCK_REL, GOLDI_TRC_OP_WAIT_ENTER, GOLDI_TRC_OP_WAIT_EXIT, GOLDI_TRC_OP_SIGNAL,
    GOLDI_TRC_OP_BROADCAST, GOLDI_TRC_OP_BAR_ARRIVE, GOLDI_TRC_OP_BAR_DEPART, GOLDI_TRC_OP_SEM_POST,
    GOLDI_TRC_OP_SEM_WAIT, GOLDI_TRC_OP_ONCE_DONE, GOLDI_TRC_OP_ONCE_RET, GOLDI_TRC_OP_ATOMIC_LOAD,
    GOLDI_TRC_OP_ATOMIC_STORE, GOLDI_TRC_OP_ATOMIC_RMW, GOLDI_TRC_OP_ATOMIC_CASFAIL, GOLDI_TRC_OP_FENCE,
    GOLDI_TRC_OP_READ, GOLDI_TRC_OP_WRITE, GOLDI_TRC_OP_ALLOC, GOLDI_TRC_OP_FREE,
    GOLDI_TRC_OP_DEF_ORIGIN = 24,
    GOLDI_TRC_OP_THREAD_INFO = 25,
};
#define GOLDI_TRC_N_EVENT_OPS 24
#define GOLDI_TRC_OP_MASK 0x1f
#define GOLDI_TRC_SEQ_NEXT 0x20
#define GOLDI_TRC_SAME_ORIGIN 0x40

/* --- encoding helpers (shared by writer and reader) ----------------------- */

GOLDI_INLINE uint64_t goldi_trc_zigzag(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }
GOLDI_INLINE int64_t goldi_trc_unzigzag(uint64_t v) { return (int64_t)(v >> 1) ^ -(int64_t)(v & 1); }

/* Appends v as LEB128 at p (at most 10 bytes); returns the end. */
GOLDI_INLINE uint8_t *goldi_trc_put_u(uint8_t *p, uint64_t v) {
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

GOLDI_INLINE void goldi_trc_put_le(uint8_t *p, uint64_t v, unsigned n) {
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

GOLDI_INLINE uint64_t goldi_trc_get_le(const uint8_t *p, unsigned n) {
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* FNV-1a, 32 bits: detects corruption, not tampering. */
#define GOLDI_TRC_FNV_INIT 2166136261u
GOLDI_INLINE uint32_t goldi_trc_fnv(uint32_t h, const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

/* Check value of a chunk: header bytes [0,12) and [16,32), then the payload. */
GOLDI_INLINE uint32_t goldi_trc_chunk_check(const uint8_t *hdr, const uint8_t *payload, size_t n) {
    uint32_t h = goldi_trc_fnv(GOLDI_TRC_FNV_INIT, hdr, 12);
    h = goldi_trc_fnv(h, hdr + 16, 16);
    return goldi_trc_fnv(h, payload, n);
}

#endif
