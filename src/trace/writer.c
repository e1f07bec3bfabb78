/* Trace writer (writer.h, format in format.h). Runs inside the recorded
 * program: no malloc (goldi_alloc), no stdio (goldi_os_write), no lock held
 * while other sinks run (an engine may halt the program from its callback,
 * and halting finishes the writer on the same thread).
 *
 * Per thread: a buffer of encoded records, appended only by the thread
 * itself (its events are dispatched on it), guarded by a spinlock the owner
 * takes for a few instructions per event and that finish/thread-free take to
 * flush. Full buffers become THREAD chunks, compressed outside any global
 * lock (a pool of zstd contexts) and written under the file lock.
 *
 * Invariants:
 *  - seq numbers come from one atomic counter; a thread's records carry
 *    increasing seqs, and its chunks reach the file in its order (the
 *    thread's lock is held from encoding until its chunk is written).
 *  - after `closing` is set no record is added: an event that observes
 *    closing is dropped, and everything hb-after it observes it too, so the
 *    recorded events are closed under happens-before (a consistent cut).
 *  - an origin is defined (DEF_ORIGIN) in every thread's stream that uses
 *    it, before its first use there: origins do not name a thread, so many
 *    threads share one, and the reader decodes each stream on its own. */
#define _GNU_SOURCE   /* dl_iterate_phdr */
#include "writer.h"
#include "format.h"
#include "idset.h"
#include "names.h"
#include "zstd.h"
#include "../base/alloc.h"
#include "../base/atfork.h"
#include "../base/fmt.h"
#include "../platform/platform.h"

/* dl_iterate_phdr: a loader service, used once at start and at finish. */
#include <link.h>

/* On-disk op of every event kind (format.h numbers them once and for all;
 * event.inc may grow). 0xff: never written. */
static const uint8_t op_of_kind[GOLDI_EV_COUNT] = {
    [GOLDI_EV_FORK] = GOLDI_TRC_OP_FORK, [GOLDI_EV_EXIT] = GOLDI_TRC_OP_EXIT, [GOLDI_EV_JOIN] = GOLDI_TRC_OP_JOIN,
    [GOLDI_EV_LOCK_ACQ] = GOLDI_TRC_OP_LOCK_ACQ, [GOLDI_EV_LOCK_REL] = GOLDI_TRC_OP_LOCK_REL,
    [GOLDI_EV_WAIT_ENTER] = GOLDI_TRC_OP_WAIT_ENTER, [GOLDI_EV_WAIT_EXIT] = GOLDI_TRC_OP_WAIT_EXIT,
    [GOLDI_EV_SIGNAL] = GOLDI_TRC_OP_SIGNAL, [GOLDI_EV_BROADCAST] = GOLDI_TRC_OP_BROADCAST,
    [GOLDI_EV_BAR_ARRIVE] = GOLDI_TRC_OP_BAR_ARRIVE, [GOLDI_EV_BAR_DEPART] = GOLDI_TRC_OP_BAR_DEPART,
    [GOLDI_EV_SEM_POST] = GOLDI_TRC_OP_SEM_POST, [GOLDI_EV_SEM_WAIT] = GOLDI_TRC_OP_SEM_WAIT,
    [GOLDI_EV_ONCE_DONE] = GOLDI_TRC_OP_ONCE_DONE, [GOLDI_EV_ONCE_RET] = GOLDI_TRC_OP_ONCE_RET,
    [GOLDI_EV_ATOMIC_LOAD] = GOLDI_TRC_OP_ATOMIC_LOAD, [GOLDI_EV_ATOMIC_STORE] = GOLDI_TRC_OP_ATOMIC_STORE,
    [GOLDI_EV_ATOMIC_RMW] = GOLDI_TRC_OP_ATOMIC_RMW, [GOLDI_EV_ATOMIC_CASFAIL] = GOLDI_TRC_OP_ATOMIC_CASFAIL,
    [GOLDI_EV_ATOMIC_READ_SYNC] = 0xff,   /* derived by goldi_dispatch: replay derives it again */
    [GOLDI_EV_FENCE] = GOLDI_TRC_OP_FENCE, [GOLDI_EV_READ] = GOLDI_TRC_OP_READ,
    [GOLDI_EV_WRITE] = GOLDI_TRC_OP_WRITE, [GOLDI_EV_ALLOC] = GOLDI_TRC_OP_ALLOC, [GOLDI_EV_FREE] = GOLDI_TRC_OP_FREE,
};

#define CHUNK_TARGET (64u << 10)   /* flush a thread's buffer beyond this */
#define REC_MAX 2048u              /* largest record (DEF_ORIGIN: 64 frames, 32 locks) */
#define TID_CHUNK_BITS 12
#define TID_CHUNKS (GOLDI_TRC_MAX_TID >> TID_CHUNK_BITS)

struct wthr {
    goldi_spinlock_t lock;
    goldi_tid_t tid;
    uint8_t *buf;              /* CHUNK_TARGET + REC_MAX bytes */
    uint32_t len, n_records;
    uint64_t first_seq;        /* seq of the chunk's first event, 0 = none yet */
    uint64_t prev_seq;         /* delta state, reset per chunk */
    uint32_t prev_origin;
    uint64_t prev_addr, prev_sync;
    uint64_t pending_seq;      /* taken at the first access piece, 0 = none */
    bool info_done;            /* THREAD_INFO written */
    struct goldi_idset defined; /* origin ids defined in this stream */
    struct wthr *next;         /* all states (list_lock) */
};

struct zbuf {                  /* a compression context and its output buffer */
    void *cctx;
    uint8_t *out;
    size_t cap;
    struct zbuf *next;
};

static struct {
    struct goldi_trace_writer_config cfg;
    struct goldi_sink sink;
    bool started;
    _Atomic bool closing;              /* no record is added once set */
    _Atomic bool disabled;             /* a fork child: never write */
    bool finished;
    int err;                           /* first write error (-errno), sticky */
    goldi_spinlock_t file_lock;        /* serialises writes to fd */
    goldi_spinlock_t list_lock;        /* the list of thread states */
    goldi_spinlock_t pool_lock;
    struct zbuf *pool;
    struct wthr *list;
    bool compress;
    int level;
    _Atomic uint64_t next_seq;
    _Atomic uint64_t n_events, n_chunks, n_bytes, n_raw, n_dropped;
    _Atomic uint32_t n_threads;
} W = {.file_lock = GOLDI_SPINLOCK_INIT, .list_lock = GOLDI_SPINLOCK_INIT, .pool_lock = GOLDI_SPINLOCK_INIT};

static _Atomic(struct wthr *) *tid_table[TID_CHUNKS];

/* --- file ---------------------------------------------------------------------- */

static void write_locked(const void *p, size_t n) {
    if (W.err || atomic_load(&W.disabled))
        return;
    long r = goldi_os_write(W.cfg.fd, p, n);
    if (r < 0 || (size_t)r != n)
        W.err = -5;   /* EIO: the platform layer does not keep errno */
    else
        atomic_fetch_add(&W.n_bytes, n);
}

static struct zbuf *zbuf_get(size_t need) {
    goldi_spin_lock(&W.pool_lock);
    struct zbuf *z = W.pool;
    if (z)
        W.pool = z->next;
    goldi_spin_unlock(&W.pool_lock);
    if (!z) {
        z = goldi_alloc(sizeof *z);
        z->cctx = goldi_trace_zstd_cctx_new();
    }
    if (z->cap < need) {
        goldi_free(z->out);
        z->out = goldi_alloc(need);
        z->cap = need;
    }
    return z;
}

static void zbuf_put(struct zbuf *z) {
    goldi_spin_lock(&W.pool_lock);
    z->next = W.pool;
    W.pool = z;
    goldi_spin_unlock(&W.pool_lock);
}

/* Compresses payload (if enabled and worth it) and appends one chunk. */
static void write_chunk(uint8_t type, const uint8_t *payload, uint32_t n, uint32_t tid, uint32_t n_records,
                        uint64_t first_seq) {
    uint8_t hdr[GOLDI_TRC_CHUNK_HEADER];
    const uint8_t *stored = payload;
    uint32_t stored_len = n;
    uint8_t codec = GOLDI_TRC_RAW;
    struct zbuf *z = NULL;
    if (W.compress && n > 64) {
        z = zbuf_get(goldi_trace_zstd_bound(n));
        size_t c = goldi_trace_zstd_compress(z->cctx, z->out, z->cap, payload, n, W.level);
        if (c && c < n) {
            stored = z->out;
            stored_len = (uint32_t)c;
            codec = GOLDI_TRC_ZSTD;
        }
    }
    goldi_memset(hdr, 0, sizeof hdr);
    hdr[0] = type;
    hdr[1] = codec;
    goldi_trc_put_le(hdr + 4, n, 4);
    goldi_trc_put_le(hdr + 8, stored_len, 4);
    goldi_trc_put_le(hdr + 16, tid, 4);
    goldi_trc_put_le(hdr + 20, n_records, 4);
    goldi_trc_put_le(hdr + 24, first_seq, 8);
    goldi_trc_put_le(hdr + 12, goldi_trc_chunk_check(hdr, stored, stored_len), 4);
    goldi_spin_lock(&W.file_lock);
    write_locked(hdr, sizeof hdr);
    write_locked(stored, stored_len);
    goldi_spin_unlock(&W.file_lock);
    if (z)
        zbuf_put(z);
    atomic_fetch_add(&W.n_chunks, 1);
    atomic_fetch_add(&W.n_raw, n);
}

/* A small growable byte buffer for the META/MODULES/NAMES/END payloads. */
struct bbuf {
    uint8_t *p;
    size_t len, cap;
};

static uint8_t *bb_room(struct bbuf *b, size_t n) {
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->len + n)
            cap *= 2;
        uint8_t *q = goldi_alloc(cap);
        if (b->len)
            goldi_memcpy(q, b->p, b->len);
        goldi_free(b->p);
        b->p = q;
        b->cap = cap;
    }
    return b->p + b->len;
}

static void bb_u(struct bbuf *b, uint64_t v) {
    uint8_t *p = bb_room(b, 10);
    b->len = (size_t)(goldi_trc_put_u(p, v) - b->p);
}

static void bb_s(struct bbuf *b, const char *s) {
    size_t n = s ? goldi_strlen(s) : 0;
    bb_u(b, n);
    uint8_t *p = bb_room(b, n);
    if (n)
        goldi_memcpy(p, s, n);
    b->len += n;
}

static void bb_byte(struct bbuf *b, uint8_t v) {
    *bb_room(b, 1) = v;
    b->len++;
}

/* --- modules ----------------------------------------------------------------- */

struct mod_ctx {
    struct bbuf body;
    uint64_t n;
};

static int module_cb(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct mod_ctx *m = data;
    unsigned n_load = 0;
    for (unsigned i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_LOAD)
            n_load++;
    if (!n_load)
        return 0;
    bb_s(&m->body, info->dlpi_name ? info->dlpi_name : "");
    bb_u(&m->body, info->dlpi_addr);
    bb_u(&m->body, n_load);
    for (unsigned i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        bb_u(&m->body, info->dlpi_addr + ph->p_vaddr);
        bb_u(&m->body, ph->p_memsz);
    }
    m->n++;
    return 0;
}

static void write_modules(void) {
    struct mod_ctx m = {0};
    dl_iterate_phdr(module_cb, &m);
    struct bbuf b = {0};
    bb_u(&b, m.n);
    uint8_t *p = bb_room(&b, m.body.len);
    if (m.body.len)
        goldi_memcpy(p, m.body.p, m.body.len);
    b.len += m.body.len;
    write_chunk(GOLDI_TRC_MODULES, b.p, (uint32_t)b.len, 0, 0, 0);
    goldi_free(b.p);
    goldi_free(m.body.p);
}

static void name_cb(void *ctx, unsigned kind, uint64_t key, const char *name) {
    struct bbuf *b = ctx;
    bb_byte(b, (uint8_t)kind);
    bb_u(b, key);
    bb_s(b, name);
}

static void write_names(void) {
    size_t n = goldi_trace_name_count();
    if (!n)
        return;
    struct bbuf b = {0};
    bb_u(&b, n);
    goldi_trace_name_for_each(name_cb, &b);
    if (b.len <= GOLDI_TRC_MAX_RAW)
        write_chunk(GOLDI_TRC_NAMES, b.p, (uint32_t)b.len, 0, 0, 0);
    goldi_free(b.p);
}

/* --- thread states ------------------------------------------------------------ */

static struct wthr *wthr_get(goldi_tid_t tid, bool create) {
    if (tid >= GOLDI_TRC_MAX_TID)
        return NULL;
    _Atomic(struct wthr *) *c = __atomic_load_n(&tid_table[tid >> TID_CHUNK_BITS], __ATOMIC_ACQUIRE);
    if (!c) {
        if (!create)
            return NULL;
        _Atomic(struct wthr *) *fresh = goldi_alloc(sizeof(*fresh) << TID_CHUNK_BITS);
        _Atomic(struct wthr *) *expected = NULL;
        if (__atomic_compare_exchange_n(&tid_table[tid >> TID_CHUNK_BITS], &expected, fresh, false,
                                        __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            c = fresh;
        } else {
            goldi_free(fresh);
            c = expected;
        }
    }
    _Atomic(struct wthr *) *slot = &c[tid & ((1u << TID_CHUNK_BITS) - 1)];
    struct wthr *w = atomic_load_explicit(slot, memory_order_acquire);
    if (w || !create)
        return w;
    /* Only thread tid itself creates its state (its events run on it). */
    w = goldi_alloc(sizeof *w);
    w->tid = tid;
    w->buf = goldi_alloc(CHUNK_TARGET + REC_MAX);
    goldi_spin_lock(&W.list_lock);
    w->next = W.list;
    W.list = w;
    goldi_spin_unlock(&W.list_lock);
    atomic_store_explicit(slot, w, memory_order_release);
    atomic_fetch_add(&W.n_threads, 1);
    return w;
}

static void reset_delta(struct wthr *w) {
    w->len = 0;
    w->n_records = 0;
    w->first_seq = 0;
    w->prev_seq = 0;
    w->prev_origin = 0;
    w->prev_addr = 0;
    w->prev_sync = 0;
}

/* Caller holds w->lock. */
static void flush_locked(struct wthr *w) {
    if (!w->n_records)
        return;
    write_chunk(GOLDI_TRC_THREAD, w->buf, w->len, w->tid, w->n_records, w->first_seq);
    reset_delta(w);
}

/* --- origins ------------------------------------------------------------------ */

static uint8_t *put_def_origin(uint8_t *p, uint32_t id, goldi_tid_t tid) {
    struct goldi_origin_info oi;
    if (!goldi_origin_lookup(id, &oi))
        goldi_memset(&oi, 0, sizeof oi);
    uint32_t nf = oi.n_frames < GOLDI_TRC_MAX_FRAMES ? oi.n_frames : GOLDI_TRC_MAX_FRAMES;
    uint32_t nh = oi.n_held < GOLDI_TRC_MAX_HELD ? oi.n_held : GOLDI_TRC_MAX_HELD;
    *p++ = GOLDI_TRC_OP_DEF_ORIGIN;
    p = goldi_trc_put_u(p, id);
    p = goldi_trc_put_u(p, tid);   /* (the stream's thread: origins name none) */
    p = goldi_trc_put_u(p, oi.size);
    p = goldi_trc_put_u(p, oi.flags);
    p = goldi_trc_put_u(p, nf);
    uint64_t prev = 0;
    for (uint32_t i = 0; i < nf; i++) {
        p = goldi_trc_put_u(p, goldi_trc_zigzag((int64_t)(oi.frames[i] - prev)));
        prev = oi.frames[i];
    }
    p = goldi_trc_put_u(p, nh);
    prev = 0;
    for (uint32_t i = 0; i < nh; i++) {
        p = goldi_trc_put_u(p, goldi_trc_zigzag((int64_t)(oi.held_addr[i] - prev)));
        prev = oi.held_addr[i];
        *p++ = oi.held_mode[i];
    }
    return p;
}

/* --- records -------------------------------------------------------------------- */

static uint8_t *put_sync(uint8_t *p, const struct goldi_sync *o, uint64_t base) {
    p = goldi_trc_put_u(p, goldi_trc_zigzag((int64_t)(o->addr - base)));
    *p++ = o->kind;
    p = goldi_trc_put_u(p, o->tok[0].id);
    if (o->kind == GOLDI_SYNC_RWLOCK || o->kind == GOLDI_SYNC_BARRIER)
        p = goldi_trc_put_u(p, o->tok[1].id);
    return p;
}

static uint8_t *put_sync_delta(uint8_t *p, struct wthr *w, const struct goldi_sync *o) {
    p = put_sync(p, o, w->prev_sync);
    w->prev_sync = o->addr;
    return p;
}

static uint8_t *put_addr(uint8_t *p, struct wthr *w, uintptr_t addr) {
    p = goldi_trc_put_u(p, goldi_trc_zigzag((int64_t)(addr - w->prev_addr)));
    w->prev_addr = addr;
    return p;
}

static uint8_t *put_thread_info(uint8_t *p, const struct goldi_event *ev) {
    struct goldi_trace_thread_info ti;
    goldi_memset(&ti, 0, sizeof ti);
    if (W.cfg.thread_info)
        W.cfg.thread_info(ev->thr, &ti);
    *p++ = GOLDI_TRC_OP_THREAD_INFO;
    p = goldi_trc_put_u(p, ev->thr->parent == GOLDI_TID_NONE ? 0 : (uint64_t)ev->thr->parent + 1);
    p = goldi_trc_put_u(p, (uint64_t)(uint32_t)ti.os_tid);
    p = goldi_trc_put_u(p, ti.stack_lo);
    p = goldi_trc_put_u(p, ti.stack_hi > ti.stack_lo ? ti.stack_hi - ti.stack_lo : 0);
    p = goldi_trc_put_u(p, ti.tls_lo);
    p = goldi_trc_put_u(p, ti.tls_hi > ti.tls_lo ? ti.tls_hi - ti.tls_lo : 0);
    return p;
}

/* Appends ev's record (and the definitions it needs). Caller holds w->lock. */
static void encode_locked(struct wthr *w, const struct goldi_event *ev, uint64_t seq, uint32_t origin) {
    uint8_t *p = w->buf + w->len;
    if (!w->info_done) {
        p = put_thread_info(p, ev);
        w->info_done = true;
        w->n_records++;
    }
    if (origin && goldi_idset_add(&w->defined, origin)) {
        p = put_def_origin(p, origin, w->tid);
        w->n_records++;
    }
    if (!w->first_seq) {
        w->first_seq = seq;
        w->prev_seq = seq - 1;
    }
    uint8_t head = op_of_kind[ev->kind];
    uint8_t *hp = p++;
    if (seq == w->prev_seq + 1)
        head |= GOLDI_TRC_SEQ_NEXT;
    else
        p = goldi_trc_put_u(p, seq - w->prev_seq);
    w->prev_seq = seq;
    if (origin == w->prev_origin)
        head |= GOLDI_TRC_SAME_ORIGIN;
    else
        p = goldi_trc_put_u(p, origin);
    w->prev_origin = origin;
    *hp = head;
    switch ((enum goldi_event_kind)ev->kind) {
    case GOLDI_EV_FORK:
    case GOLDI_EV_JOIN:
        p = goldi_trc_put_u(p, ev->other ? ev->other->tid : 0);
        break;
    case GOLDI_EV_EXIT:
        break;
    case GOLDI_EV_LOCK_ACQ:
    case GOLDI_EV_LOCK_REL:
        p = put_sync_delta(p, w, ev->obj);
        *p++ = ev->mode;
        break;
    case GOLDI_EV_WAIT_ENTER:
    case GOLDI_EV_WAIT_EXIT:
        p = put_sync_delta(p, w, ev->obj);
        p = put_sync_delta(p, w, ev->obj2);
        break;
    case GOLDI_EV_SIGNAL:
    case GOLDI_EV_BROADCAST:
    case GOLDI_EV_SEM_POST:
    case GOLDI_EV_SEM_WAIT:
    case GOLDI_EV_ONCE_DONE:
    case GOLDI_EV_ONCE_RET:
        p = put_sync_delta(p, w, ev->obj);
        break;
    case GOLDI_EV_BAR_ARRIVE:
    case GOLDI_EV_BAR_DEPART:
        p = put_sync_delta(p, w, ev->obj);
        p = goldi_trc_put_u(p, ev->gen);
        p = goldi_trc_put_u(p, ev->obj->bar_count);
        break;
    case GOLDI_EV_ATOMIC_LOAD:
    case GOLDI_EV_ATOMIC_STORE:
    case GOLDI_EV_ATOMIC_RMW:
    case GOLDI_EV_ATOMIC_CASFAIL:
        p = put_addr(p, w, ev->addr);
        p = goldi_trc_put_u(p, ev->size);
        *p++ = ev->mo;
        p = put_sync(p, ev->obj, ev->addr);
        break;
    case GOLDI_EV_FENCE:
        *p++ = ev->mo;
        break;
    case GOLDI_EV_READ:
    case GOLDI_EV_WRITE:
        p = put_addr(p, w, ev->addr);
        p = goldi_trc_put_u(p, ((uint64_t)ev->size << 1) | (ev->flags & GOLDI_EVF_RANGE ? 1 : 0));
        break;
    case GOLDI_EV_ALLOC:
    case GOLDI_EV_FREE:
        p = put_addr(p, w, ev->addr);
        p = goldi_trc_put_u(p, ev->size);
        break;
    case GOLDI_EV_ATOMIC_READ_SYNC:
    case GOLDI_EV_COUNT:
        break;
    }
    w->len = (uint32_t)(p - w->buf);
    w->n_records++;
    atomic_fetch_add_explicit(&W.n_events, 1, memory_order_relaxed);
}

/* --- sink -------------------------------------------------------------------------- */

static uint64_t take_seq(void) {
    return atomic_fetch_add_explicit(&W.next_seq, 1, memory_order_relaxed);
}

/* First granule piece of an access: its place in the global order is taken
 * here, under the granule lock, so conflicting accesses keep the order in
 * which the engines saw them. */
static void on_access(void *self, const struct goldi_event *ev, uintptr_t addr, unsigned size) {
    (void)self;
    (void)size;
    if (addr != ev->addr)
        return;
    struct wthr *w = wthr_get(ev->thr->tid, true);
    if (!w)
        return;
    goldi_spin_lock(&w->lock);
    w->pending_seq = atomic_load(&W.closing) ? 0 : take_seq();
    goldi_spin_unlock(&w->lock);
}

static void on_event(void *self, const struct goldi_event *ev) {
    (void)self;
    /* derived events (ATOMIC_READ_SYNC) are made again by the replay's dispatch */
    if (atomic_load_explicit(&W.disabled, memory_order_relaxed) || (ev->flags & GOLDI_EVF_DERIVED) ||
        op_of_kind[ev->kind] == 0xff)
        return;
    struct wthr *w = wthr_get(ev->thr->tid, true);
    if (!w) {
        atomic_fetch_add(&W.n_dropped, 1);
        return;
    }
    /* Origins intern under their own locks, never under w->lock. */
    uint32_t origin = goldi_event_origin(ev);
    goldi_spin_lock(&w->lock);
    bool access = goldi_event_is_access[ev->kind] && ev->size;
    uint64_t seq = access ? w->pending_seq : 0;
    w->pending_seq = 0;
    if (atomic_load(&W.closing) || (access && !seq)) {
        goldi_spin_unlock(&w->lock);
        atomic_fetch_add(&W.n_dropped, 1);
        return;
    }
    if (!seq)
        seq = take_seq();
    encode_locked(w, ev, seq, origin);
    if (w->len >= CHUNK_TARGET)
        flush_locked(w);
    goldi_spin_unlock(&w->lock);
}

static void on_thr_free(void *self, struct goldi_thr *thr) {
    (void)self;
    struct wthr *w = wthr_get(thr->tid, false);
    if (!w)
        return;
    goldi_spin_lock(&W.list_lock);
    goldi_spin_lock(&w->lock);
    if (!W.finished)
        flush_locked(w);
    goldi_spin_unlock(&w->lock);
    for (struct wthr **pp = &W.list; *pp; pp = &(*pp)->next)
        if (*pp == w) {
            *pp = w->next;
            break;
        }
    _Atomic(struct wthr *) *c = __atomic_load_n(&tid_table[thr->tid >> TID_CHUNK_BITS], __ATOMIC_ACQUIRE);
    atomic_store(&c[thr->tid & ((1u << TID_CHUNK_BITS) - 1)], NULL);
    goldi_spin_unlock(&W.list_lock);
    goldi_free(w->buf);
    goldi_idset_free(&w->defined);
    goldi_free(w);
}

/* --- start / finish ------------------------------------------------------------------- */

static void noop(void) {}
static void fork_child(void) { atomic_store(&W.disabled, true); }

struct goldi_sink *goldi_trace_writer_start(const struct goldi_trace_writer_config *cfg) {
    GOLDI_CHECK(!W.started);
    W.cfg = *cfg;
    W.level = cfg->level ? cfg->level : 3;
    W.compress = cfg->level >= 0 && goldi_trace_zstd_available();
    atomic_store(&W.next_seq, 1);
    uint8_t fh[GOLDI_TRC_FILE_HEADER];
    goldi_memset(fh, 0, sizeof fh);
    goldi_memcpy(fh, GOLDI_TRC_MAGIC, 8);
    goldi_trc_put_le(fh + 8, GOLDI_TRC_VERSION, 2);
    goldi_trc_put_le(fh + 10, GOLDI_TRC_FILE_HEADER, 2);
    goldi_spin_lock(&W.file_lock);
    write_locked(fh, sizeof fh);
    goldi_spin_unlock(&W.file_lock);
    if (W.err) {
        goldi_os_close(cfg->fd);
        return NULL;
    }
    struct bbuf b = {0};
    char *exe = goldi_alloc(4096);   /* too big for a user thread's stack */
    if (cfg->record_process && goldi_os_exe_path(exe, 4096) < 0)
        exe[0] = 0;
    bb_u(&b, cfg->record_process ? (uint64_t)goldi_os_getpid() : 0);
    bb_s(&b, exe);
    bb_s(&b, cfg->tool ? cfg->tool : "");
    write_chunk(GOLDI_TRC_META, b.p, (uint32_t)b.len, 0, 0, 0);
    goldi_free(b.p);
    goldi_free(exe);
    if (cfg->record_process)
        write_modules();
    W.started = true;
    W.sink.name = "trace-writer";
    W.sink.self = &W;
    W.sink.index = GOLDI_MAX_ENGINES;   /* uses no estate[] slot */
    W.sink.on_access = on_access;
    W.sink.free_first_piece = true;   /* (the first piece takes the sequence number) */
    W.sink.on_event = on_event;
    W.sink.on_thr_free = on_thr_free;
    goldi_atfork_register(GOLDI_ATFORK_ALLOC - 1, noop, noop, fork_child);
    goldi_dispatch_attach(&W.sink);
    return &W.sink;
}

int goldi_trace_writer_finish(void) {
    if (!W.started || W.finished)
        return W.err;
    atomic_store(&W.closing, true);
    goldi_spin_lock(&W.list_lock);
    if (W.finished) {
        goldi_spin_unlock(&W.list_lock);
        return W.err;
    }
    uint32_t n_threads = 0;
    for (struct wthr *w = W.list; w; w = w->next) {
        goldi_spin_lock(&w->lock);
        flush_locked(w);
        goldi_spin_unlock(&w->lock);
        n_threads++;
    }
    if (!atomic_load(&W.disabled)) {
        if (W.cfg.record_process)
            write_modules();
        write_names();
        struct bbuf b = {0};
        bb_u(&b, atomic_load(&W.n_threads));
        bb_u(&b, atomic_load(&W.n_events));
        bb_u(&b, atomic_load(&W.n_chunks) + 1);
        bb_u(&b, atomic_load(&W.n_dropped));
        write_chunk(GOLDI_TRC_END, b.p, (uint32_t)b.len, 0, 0, 0);
        goldi_free(b.p);
    }
    W.finished = true;
    goldi_os_close(W.cfg.fd);
    goldi_spin_unlock(&W.list_lock);
    (void)n_threads;
    return W.err;
}

void goldi_trace_writer_stats(struct goldi_trace_writer_stats *out) {
    out->events = atomic_load(&W.n_events);
    out->chunks = atomic_load(&W.n_chunks);
    out->bytes = atomic_load(&W.n_bytes);
    out->raw_bytes = atomic_load(&W.n_raw);
    out->dropped = atomic_load(&W.n_dropped);
    out->threads = atomic_load(&W.n_threads);
    out->compressed = W.compress;
}
