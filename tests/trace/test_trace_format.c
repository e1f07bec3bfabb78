/* Unit tests of the binary trace format (src/trace/format.h): varint and
 * zigzag round trips with random values, a random event stream written by
 * the trace writer and replayed by the reader (every field and the shadow
 * stack must come back in the same order), hand-made bad headers, and
 * hand-made traces whose streams define an origin differently or not at all.
 * Usage: test_trace_format WORKDIR */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "event/sync.h"
#include "trace/format.h"
#include "trace/reader.h"
#include "trace/writer.h"

static int n_pass, n_fail;
#define EXPECT(c)                                                                  \
    do {                                                                           \
        if (!(c)) {                                                                \
            fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #c);       \
            n_fail_case++;                                                         \
        }                                                                          \
    } while (0)
static int n_fail_case;

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* --- trace_varint ------------------------------------------------------------ */

static uint64_t get_u(const uint8_t **p) {
    uint64_t v = 0;
    for (unsigned s = 0;; s += 7) {
        uint8_t b = *(*p)++;
        v |= (uint64_t)(b & 0x7f) << s;
        if (!(b & 0x80))
            return v;
    }
}

static void trace_varint(void) {
    uint8_t buf[16];
    for (int i = 0; i < 200000; i++) {
        uint64_t v = rnd() >> (rnd() % 64);
        if (i < 4)
            v = (uint64_t[]){0, 127, 128, UINT64_MAX}[i];
        uint8_t *e = goldi_trc_put_u(buf, v);
        EXPECT(e - buf <= 10);
        const uint8_t *p = buf;
        EXPECT(get_u(&p) == v && p == e);
        int64_t s = (int64_t)rnd() >> (rnd() % 64);
        EXPECT(goldi_trc_unzigzag(goldi_trc_zigzag(s)) == s);
    }
    EXPECT(goldi_trc_zigzag(-1) == 1 && goldi_trc_zigzag(1) == 2 && goldi_trc_zigzag(INT64_MIN) == UINT64_MAX);
}

/* --- trace_stream_roundtrip -------------------------------------------------- */

struct rec {
    uint8_t kind, mo, mode, flags;
    goldi_tid_t tid, other;
    uintptr_t addr, obj, obj2, pc;
    uint32_t size, depth;
    uint64_t gen;
    uintptr_t stack[4];
};

static struct rec *seen;
static size_t n_seen, cap_seen;
static bool recording;

static void rec_event(void *self, const struct goldi_event *ev) {
    (void)self;
    if (!recording || (ev->flags & GOLDI_EVF_DERIVED))
        return;
    if (n_seen == cap_seen) {
        cap_seen = cap_seen ? 2 * cap_seen : 1024;
        seen = realloc(seen, cap_seen * sizeof *seen);
    }
    struct rec *r = &seen[n_seen++];
    memset(r, 0, sizeof *r);
    r->kind = ev->kind;
    r->mo = ev->mo;
    r->mode = ev->mode;
    r->flags = ev->flags & GOLDI_EVF_RANGE;
    r->tid = ev->thr->tid;
    r->other = ev->other ? ev->other->tid : GOLDI_TID_NONE;
    r->addr = ev->addr;
    r->size = ev->size;
    r->obj = ev->obj ? ev->obj->addr : 0;
    r->obj2 = ev->obj2 ? ev->obj2->addr : 0;
    r->gen = ev->gen;
    r->pc = ev->pc;
    r->depth = ev->thr->depth;
    for (uint32_t i = 0; i < r->depth && i < 4; i++)
        r->stack[i] = ev->thr->stack[i];
}

static struct goldi_sink rec_sink = {.name = "rec", .index = GOLDI_MAX_ENGINES, .on_event = rec_event};

#define N_THR 4
#define AREA 0x7e0000001000ull   /* accesses land here (shadow only, never touched) */
#define SYNC 0x7e0000100000ull   /* sync objects */

static void one(struct goldi_thr *t, struct goldi_event *ev) {
    ev->thr = t;
    ev->pc = 0x400000 + (rnd() % 64) * 4;
    t->depth = (uint32_t)(rnd() % 4);
    for (uint32_t i = 0; i < t->depth; i++)
        t->stack[i] = 0x500000 + (rnd() % 16) * 8;
    goldi_thr_stack_changed(t);
    goldi_dispatch(ev);
}

static void trace_stream_roundtrip(const char *work) {
    char path[4096];
    snprintf(path, sizeof path, "%s/random.gtb", work);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    EXPECT(fd >= 0);
    goldi_dispatch_attach(&rec_sink);
    struct goldi_trace_writer_config wc = {.fd = fd, .tool = "test_trace_format"};
    EXPECT(goldi_trace_writer_start(&wc) != NULL);
    recording = true;

    struct goldi_thr *thr[N_THR];
    for (int i = 0; i < N_THR; i++) {
        thr[i] = calloc(1, sizeof **thr);
        thr[i]->tid = (goldi_tid_t)i;
        thr[i]->parent = i ? 0 : GOLDI_TID_NONE;
    }
    for (int i = 1; i < N_THR; i++) {
        struct goldi_event ev = {.kind = GOLDI_EV_FORK, .other = thr[i]};
        one(thr[0], &ev);
    }
    bool held[N_THR] = {0};
    for (int i = 0; i < 20000; i++) {
        int ti = (int)(rnd() % N_THR);
        struct goldi_thr *t = thr[ti];
        struct goldi_event ev = {0};
        uintptr_t a = AREA + rnd() % 4096;
        switch (rnd() % 12) {
        case 0: case 1: case 2:
            ev.kind = rnd() & 1 ? GOLDI_EV_READ : GOLDI_EV_WRITE;
            ev.addr = a;
            ev.size = (uint32_t)(1 + rnd() % 16);
            if (rnd() % 8 == 0) {
                ev.flags = GOLDI_EVF_RANGE;
                ev.size = (uint32_t)(1 + rnd() % 200);
            }
            break;
        case 3: {
            static const uint8_t kinds[] = {GOLDI_EV_ATOMIC_LOAD, GOLDI_EV_ATOMIC_STORE, GOLDI_EV_ATOMIC_RMW,
                                            GOLDI_EV_ATOMIC_CASFAIL};
            ev.kind = kinds[rnd() % 4];
            ev.addr = a & ~(uintptr_t)7;
            ev.size = 1u << (rnd() % 4);
            ev.mo = (uint8_t)(rnd() % 6);
            ev.obj = goldi_sync_get(ev.addr, GOLDI_SYNC_ATOMIC);
            break;
        }
        case 4: {
            /* a per-thread mutex, or a shared rwlock read side */
            bool rw = rnd() & 1;
            ev.obj = goldi_sync_get(SYNC + (rw ? 0 : 64 * (uintptr_t)(ti + 1)),
                                    rw ? GOLDI_SYNC_RWLOCK : GOLDI_SYNC_MUTEX);
            ev.kind = held[ti] ? GOLDI_EV_LOCK_REL : GOLDI_EV_LOCK_ACQ;
            ev.mode = rw ? GOLDI_LOCK_SHARED : GOLDI_LOCK_EXCL;
            if (held[ti]) {
                /* release what is held */
                ev.obj = t->held[0].obj;
                ev.mode = t->held[0].mode;
            }
            held[ti] = !held[ti];
            break;
        }
        case 5:
            ev.kind = rnd() & 1 ? GOLDI_EV_SEM_POST : GOLDI_EV_SEM_WAIT;
            ev.obj = goldi_sync_get(SYNC + 1024, GOLDI_SYNC_SEM);
            break;
        case 6:
            ev.kind = rnd() & 1 ? GOLDI_EV_BAR_ARRIVE : GOLDI_EV_BAR_DEPART;
            ev.obj = goldi_sync_get(SYNC + 2048, GOLDI_SYNC_BARRIER);
            ev.gen = rnd() % 5;
            break;
        case 7:
            ev.kind = GOLDI_EV_FENCE;
            ev.mo = (uint8_t)(1 + rnd() % 5);
            break;
        case 8:
            ev.kind = rnd() & 1 ? GOLDI_EV_ALLOC : GOLDI_EV_FREE;
            ev.addr = AREA + 8192 + (rnd() % 8) * 256;
            ev.size = 256;
            break;
        case 9:
            ev.kind = rnd() & 1 ? GOLDI_EV_SIGNAL : GOLDI_EV_BROADCAST;
            ev.obj = goldi_sync_get(SYNC + 3072, GOLDI_SYNC_COND);
            break;
        case 10:
            ev.kind = rnd() & 1 ? GOLDI_EV_ONCE_DONE : GOLDI_EV_ONCE_RET;
            ev.obj = goldi_sync_get(SYNC + 4096, GOLDI_SYNC_ONCE);
            break;
        case 11:
            /* an object re-initialised (new life) between uses */
            goldi_sync_reset(SYNC + 1024);
            continue;
        }
        one(t, &ev);
    }
    for (int i = 1; i < N_THR; i++) {
        struct goldi_event ex = {.kind = GOLDI_EV_EXIT};
        one(thr[i], &ex);
        struct goldi_event j = {.kind = GOLDI_EV_JOIN, .other = thr[i]};
        one(thr[0], &j);
    }
    EXPECT(goldi_trace_writer_finish() == 0);
    recording = false;
    size_t n_orig = n_seen;

    /* read it back: the replay goes to the same recording sink */
    FILE *f = fopen(path, "rb");
    EXPECT(f != NULL);
    struct stat st;
    fstat(fileno(f), &st);
    uint8_t *data = malloc((size_t)st.st_size);
    EXPECT(fread(data, 1, (size_t)st.st_size, f) == (size_t)st.st_size);
    fclose(f);
    struct goldi_trace *t;
    char err[256];
    int rc = goldi_trace_open(data, (size_t)st.st_size, NULL, &t, err, sizeof err);
    if (rc)
        fprintf(stderr, "open: %s\n", err);
    EXPECT(rc == 0);
    if (rc)
        return;
    EXPECT(goldi_trace_get_info(t)->complete);
    EXPECT(goldi_trace_get_info(t)->n_events == n_orig);
    recording = true;
    uint64_t n_ev = 0;
    rc = goldi_trace_replay(t, true, &n_ev, err, sizeof err);
    if (rc)
        fprintf(stderr, "replay: %s\n", err);
    EXPECT(rc == 0);
    EXPECT(n_ev == n_orig);
    EXPECT(n_seen == 2 * n_orig);
    for (size_t i = 0; i < n_orig && n_seen == 2 * n_orig; i++) {
        struct rec *a = &seen[i], *b = &seen[n_orig + i];
        if (memcmp(a, b, sizeof *a) != 0) {
            fprintf(stderr, "event %zu differs: kind %u/%u tid %u/%u addr %#lx/%#lx pc %#lx/%#lx depth %u/%u\n", i,
                    a->kind, b->kind, a->tid, b->tid, (unsigned long)a->addr, (unsigned long)b->addr,
                    (unsigned long)a->pc, (unsigned long)b->pc, a->depth, b->depth);
            n_fail_case++;
            break;
        }
    }
    goldi_trace_close(t);
    free(data);
}

/* --- trace_bad_headers --------------------------------------------------------- */

static void expect_reject(const void *d, size_t n, const char *what) {
    struct goldi_trace *t;
    char err[256];
    int rc = goldi_trace_open(d, n, NULL, &t, err, sizeof err);
    if (rc == 0 || !strstr(err, "offset ") || !strstr(err, what)) {
        fprintf(stderr, "want rejection '%s', got rc %d '%s'\n", what, rc, err);
        n_fail_case++;
    }
}

static void trace_bad_headers(void) {
    uint8_t h[64] = "GOLDITRC";
    expect_reject(h, 4, "too short");
    expect_reject("NOTATRACE-------", 16, "bad magic");
    h[8] = 9;   /* version 9 */
    expect_reject(h, 16, "unsupported trace version 9");
    h[8] = GOLDI_TRC_VERSION;
    h[10] = 16;
    expect_reject(h, 16, "no META");
    expect_reject(h, 20, "chunk header cut off");
    h[16] = 77;   /* chunk type */
    expect_reject(h, 48, "unknown chunk type 77");
}

/* --- trace_origin_definitions ------------------------------------------------ */

/* A hand-made trace: META, two THREAD chunks with one FENCE each (origin 5),
 * END. Thread 0 defines origin 5 at frame 0x1000; thread 1 defines it with
 * frame f1 (0: not at all). */
static size_t put_chunk(uint8_t *out, uint8_t type, uint32_t tid, uint32_t n_records, uint64_t first_seq,
                        const uint8_t *payload, uint32_t n) {
    uint8_t *h = out;
    memset(h, 0, GOLDI_TRC_CHUNK_HEADER);
    h[0] = type;
    goldi_trc_put_le(h + 4, n, 4);
    goldi_trc_put_le(h + 8, n, 4);
    goldi_trc_put_le(h + 16, tid, 4);
    goldi_trc_put_le(h + 20, n_records, 4);
    goldi_trc_put_le(h + 24, first_seq, 8);
    memcpy(h + GOLDI_TRC_CHUNK_HEADER, payload, n);
    goldi_trc_put_le(h + 12, goldi_trc_chunk_check(h, payload, n), 4);
    return GOLDI_TRC_CHUNK_HEADER + n;
}

static size_t thread_payload(uint8_t *p0, uint32_t tid, uint64_t frame, uint32_t *n_records) {
    uint8_t *p = p0;
    *n_records = 1;
    if (frame) {
        *p++ = GOLDI_TRC_OP_DEF_ORIGIN;
        p = goldi_trc_put_u(p, 5);   /* id */
        p = goldi_trc_put_u(p, tid);
        p = goldi_trc_put_u(p, 0);   /* size, flags */
        p = goldi_trc_put_u(p, 0);
        p = goldi_trc_put_u(p, 1);   /* one frame */
        p = goldi_trc_put_u(p, goldi_trc_zigzag((int64_t)frame));
        p = goldi_trc_put_u(p, 0);   /* no locks */
        ++*n_records;
    }
    *p++ = GOLDI_TRC_OP_FENCE | GOLDI_TRC_SEQ_NEXT;
    p = goldi_trc_put_u(p, 5);       /* origin */
    *p++ = 5;                        /* mo: seq_cst */
    return (size_t)(p - p0);
}

static void expect_replay_error(uint64_t f1, const char *what) {
    uint8_t file[1024], pay[128];
    size_t n = 0;
    memset(file, 0, GOLDI_TRC_FILE_HEADER);
    memcpy(file, GOLDI_TRC_MAGIC, 8);
    goldi_trc_put_le(file + 8, GOLDI_TRC_VERSION, 2);
    goldi_trc_put_le(file + 10, GOLDI_TRC_FILE_HEADER, 2);
    n = GOLDI_TRC_FILE_HEADER;
    uint8_t *p = goldi_trc_put_u(pay, 1);   /* pid, exe "", tool "t" */
    p = goldi_trc_put_u(p, 0);
    p = goldi_trc_put_u(p, 1);
    *p++ = 't';
    n += put_chunk(file + n, GOLDI_TRC_META, 0, 0, 0, pay, (uint32_t)(p - pay));
    uint32_t nr;
    size_t len = thread_payload(pay, 0, 0x1000, &nr);
    n += put_chunk(file + n, GOLDI_TRC_THREAD, 0, nr, 1, pay, (uint32_t)len);
    len = thread_payload(pay, 1, f1, &nr);
    n += put_chunk(file + n, GOLDI_TRC_THREAD, 1, nr, 2, pay, (uint32_t)len);
    p = goldi_trc_put_u(pay, 2);   /* threads, events, chunks, dropped */
    p = goldi_trc_put_u(p, 2);
    p = goldi_trc_put_u(p, 4);
    p = goldi_trc_put_u(p, 0);
    n += put_chunk(file + n, GOLDI_TRC_END, 0, 0, 0, pay, (uint32_t)(p - pay));
    struct goldi_trace *t;
    char err[256] = "";
    int rc = goldi_trace_open(file, n, NULL, &t, err, sizeof err);
    if (rc == 0) {
        uint64_t n_ev = 0;
        rc = goldi_trace_replay(t, false, &n_ev, err, sizeof err);
        goldi_trace_close(t);
    }
    if (what ? rc == 0 || !strstr(err, what) : rc != 0) {
        fprintf(stderr, "frame %#llx: want %s%s, got rc %d '%s'\n", (unsigned long long)f1, what ? "rejection " : "success",
                what ? what : "", rc, err);
        n_fail_case++;
    }
}

/* Every stream defines the origins it uses, and one id means one stack. */
static void trace_origin_definitions(void) {
    expect_replay_error(0x1000, NULL);   /* the same definition in both streams */
    expect_replay_error(0x2000, "defined twice with different frames");
    expect_replay_error(0, "used before this thread's stream defines it");
}

#define RUN(fn, ...)                                                               \
    do {                                                                           \
        n_fail_case = 0;                                                           \
        fn(__VA_ARGS__);                                                           \
        printf("%s %s\n", n_fail_case ? "FAIL" : "ok  ", #fn);                     \
        n_fail_case ? n_fail++ : n_pass++;                                         \
    } while (0)

int main(int argc, char **argv) {
    const char *work = argc > 1 ? argv[1] : ".";
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", work);
    for (char *p = dir + 1; *p; p++)   /* mkdir -p */
        if (*p == '/') {
            *p = 0;
            mkdir(dir, 0755);
            *p = '/';
        }
    mkdir(dir, 0755);
    RUN(trace_varint);
    RUN(trace_bad_headers);
    RUN(trace_origin_definitions);
    RUN(trace_stream_roundtrip, work);
    printf("%d passed, %d failed\n", n_pass, n_fail);
    return n_fail ? 1 : 0;
}
