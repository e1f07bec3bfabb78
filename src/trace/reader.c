/* Binary trace reader (reader.h, format.h). Untrusted input: every read is
 * bounds-checked, every count is capped before anything is allocated for it,
 * and every error says where (file offset of the chunk, byte of its payload).
 *
 * Replay invariants:
 *  - streams (one per tid) are merged by (seq, tid); within a stream seqs
 *    strictly increase, so the merge is deterministic for any input.
 *  - a replayed thread's shadow stack equals the frames of the recorded
 *    origin of its current event, so engines intern origins with the same
 *    content as online and reports print the same stacks.
 *  - a sync object is replayed at its recorded address; when its recorded
 *    token ids change (the program re-initialised or freed it) the replay
 *    gives it fresh tokens too. */
#include "reader.h"
#include "format.h"
#include "idset.h"
#include "names.h"
#include "zstd.h"
#include "../base/alloc.h"
#include "../base/fmt.h"
#include "../event/sync.h"

#define RD_EINVAL 22
#define RD_MAX_MODULES 4096
#define RD_MAX_RANGES 64
#define RD_MAX_STR 4096

struct chunk {
    uint64_t off;               /* file offset of the chunk header */
    const uint8_t *stored;
    uint32_t stored_len, raw_len;
    uint8_t codec;
    uint32_t n_records;
    uint64_t first_seq;
};

struct origin_def {
    uint32_t id;                /* recorded id, 0 = empty slot */
    uint32_t n_frames;
    uint64_t *frames;
};

/* A rec is one decoded event. */
struct srec {
    uint64_t addr;
    uint8_t kind;
    uint64_t tok0, tok1;
};

struct rec {
    uint8_t kind, mo, mode, flags;
    uint64_t seq;
    uint32_t origin;
    uint64_t addr;
    uint32_t size;
    goldi_tid_t other;
    struct srec obj, obj2;
    uint64_t gen;
    uint32_t bar_count;
    uint32_t at;                /* payload byte of the record (errors) */
};

struct stream {
    goldi_tid_t tid;
    struct chunk *chunks;       /* in file order */
    uint32_t n_chunks, cap_chunks;
    uint32_t ci;                /* current chunk */
    uint8_t *owned;             /* decompressed payload (goldi_alloc) or NULL */
    const uint8_t *p;           /* payload of chunk ci */
    uint32_t len, pos;
    uint32_t left;              /* records left in chunk ci */
    uint64_t prev_seq, prev_addr, prev_sync, last_seq;
    uint32_t prev_origin;
    bool has_rec, done;
    struct rec rec;             /* next event */
    struct goldi_idset defined; /* origins this stream has defined so far */
};

enum { TS_NONE, TS_RUNNING, TS_EXITED, TS_JOINED };

struct rthr {
    struct goldi_trace_thread info;
    bool has_info;
    uint8_t state;
    struct goldi_thr *thr;      /* live replay state (freed after JOIN) */
    uint32_t cur_origin;        /* recorded origin whose frames are on thr->stack */
};

struct life {                   /* recorded token ids last seen at an address */
    uint64_t addr;
    uint64_t tok0, tok1;
    bool used;
};

struct goldi_trace {
    const uint8_t *data;
    size_t len;
    struct goldi_trace_read_opts opts;
    struct goldi_trace_info info;
    char *exe, *tool;
    struct goldi_trace_module *mods;
    uint32_t n_mods, cap_mods;
    struct stream *streams;
    uint32_t n_streams, cap_streams;
    /* replay state */
    struct origin_def *origins; /* open addressing on id */
    uint32_t n_origins, cap_origins;
    struct rthr **thr;          /* indexed by tid, grown to the largest tid seen */
    uint32_t cap_thr;
    struct life *lives;
    uint32_t n_lives, cap_lives;
    char *err;
    size_t errlen;
};

/* --- errors ------------------------------------------------------------------ */

static int fail_at(struct goldi_trace *t, uint64_t off, const char *fmt, uint64_t a, uint64_t b) {
    char msg[200];
    goldi_snprintf(msg, sizeof msg, fmt, (unsigned long long)a, (unsigned long long)b);
    if (t->err && t->errlen)
        goldi_snprintf(t->err, t->errlen, "offset %llu: %s", (unsigned long long)off, msg);
    return -RD_EINVAL;
}

static int fail_rec(struct goldi_trace *t, const struct stream *s, uint32_t at, const char *fmt, uint64_t a,
                    uint64_t b) {
    char msg[200];
    goldi_snprintf(msg, sizeof msg, fmt, (unsigned long long)a, (unsigned long long)b);
    if (t->err && t->errlen)
        goldi_snprintf(t->err, t->errlen, "offset %llu: chunk of thread T%u, record at payload byte %u: %s",
                       (unsigned long long)s->chunks[s->ci].off, s->tid, at, msg);
    return -RD_EINVAL;
}

/* --- cursors ---------------------------------------------------------------------- */

struct cur {
    const uint8_t *p;
    uint32_t len, pos;
    bool bad;
};

static uint64_t get_u(struct cur *c) {
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        if (c->pos >= c->len) {
            c->bad = true;
            return 0;
        }
        uint8_t b = c->p[c->pos++];
        if (shift == 63 && b > 1) {
            c->bad = true;
            return 0;
        }
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return v;
    }
    c->bad = true;
    return 0;
}

static uint8_t get_b(struct cur *c) {
    if (c->pos >= c->len) {
        c->bad = true;
        return 0;
    }
    return c->p[c->pos++];
}

/* A string: returns a NUL-terminated goldi_alloc'ed copy, NULL if bad. */
static char *get_s(struct cur *c) {
    uint64_t n = get_u(c);
    if (c->bad || n > RD_MAX_STR || n > c->len - c->pos) {
        c->bad = true;
        return NULL;
    }
    char *s = goldi_alloc(n + 1);
    goldi_memcpy(s, c->p + c->pos, n);
    s[n] = 0;
    c->pos += (uint32_t)n;
    return s;
}

/* --- chunks -------------------------------------------------------------------------- */

bool goldi_trace_is_binary(const void *data, size_t len) {
    return len >= 8 && goldi_strncmp(data, GOLDI_TRC_MAGIC, 8) == 0;
}

/* The payload of chunk c, decompressed if needed: *owned is set when the
 * caller must free it. */
static int chunk_payload(struct goldi_trace *t, const struct chunk *c, const uint8_t **p, uint8_t **owned) {
    *owned = NULL;
    if (c->codec == GOLDI_TRC_RAW) {
        *p = c->stored;
        return 0;
    }
    if (!goldi_trace_zstd_available())
        return fail_at(t, c->off, "chunk is zstd-compressed but libzstd.so.1 cannot be loaded", 0, 0);
    uint8_t *buf = goldi_alloc(c->raw_len ? c->raw_len : 1);
    if (!goldi_trace_zstd_decompress(buf, c->raw_len, c->stored, c->stored_len)) {
        goldi_free(buf);
        return fail_at(t, c->off, "corrupt zstd payload (does not decompress to %llu bytes)", c->raw_len, 0);
    }
    *p = buf;
    *owned = buf;
    return 0;
}

static struct stream *stream_for(struct goldi_trace *t, goldi_tid_t tid) {
    for (uint32_t i = 0; i < t->n_streams; i++)
        if (t->streams[i].tid == tid)
            return &t->streams[i];
    if (t->n_streams == t->cap_streams) {
        uint32_t cap = t->cap_streams ? 2 * t->cap_streams : 16;
        struct stream *s = goldi_alloc(cap * sizeof *s);
        if (t->n_streams)
            goldi_memcpy(s, t->streams, t->n_streams * sizeof *s);
        goldi_free(t->streams);
        t->streams = s;
        t->cap_streams = cap;
    }
    struct stream *s = &t->streams[t->n_streams++];
    goldi_memset(s, 0, sizeof *s);
    s->tid = tid;
    return s;
}

static void stream_add(struct stream *s, const struct chunk *c) {
    if (s->n_chunks == s->cap_chunks) {
        uint32_t cap = s->cap_chunks ? 2 * s->cap_chunks : 8;
        struct chunk *n = goldi_alloc(cap * sizeof *n);
        if (s->n_chunks)
            goldi_memcpy(n, s->chunks, s->n_chunks * sizeof *n);
        goldi_free(s->chunks);
        s->chunks = n;
        s->cap_chunks = cap;
    }
    s->chunks[s->n_chunks++] = *c;
}

static int parse_meta(struct goldi_trace *t, const struct chunk *c, const uint8_t *p) {
    struct cur k = {.p = p, .len = c->raw_len};
    uint64_t pid = get_u(&k);
    t->exe = get_s(&k);
    t->tool = get_s(&k);
    if (k.bad || pid > 0x7fffffff)
        return fail_at(t, c->off, "malformed META chunk", 0, 0);
    t->info.pid = (int)pid;
    t->info.exe = t->exe;
    t->info.tool = t->tool;
    return 0;
}

static int parse_modules(struct goldi_trace *t, const struct chunk *c, const uint8_t *p) {
    struct cur k = {.p = p, .len = c->raw_len};
    uint64_t n = get_u(&k);
    if (k.bad || n > RD_MAX_MODULES || t->n_mods + n > RD_MAX_MODULES)
        return fail_at(t, c->off, "malformed MODULES chunk (%llu modules)", n, 0);
    for (uint64_t i = 0; i < n; i++) {
        struct goldi_trace_module m = {0};
        m.path = get_s(&k);
        m.bias = get_u(&k);
        uint64_t nr = get_u(&k);
        if (k.bad || nr > RD_MAX_RANGES) {
            goldi_free((void *)m.path);
            return fail_at(t, c->off, "malformed MODULES chunk (module %llu)", i, 0);
        }
        uint64_t *r = goldi_alloc((nr ? nr : 1) * 2 * sizeof *r);
        for (uint64_t j = 0; j < 2 * nr; j++)
            r[j] = get_u(&k);
        if (k.bad) {
            goldi_free(r);
            goldi_free((void *)m.path);
            return fail_at(t, c->off, "malformed MODULES chunk (module %llu)", i, 0);
        }
        m.n_ranges = (uint32_t)nr;
        m.ranges = r;
        if (t->n_mods == t->cap_mods) {
            uint32_t cap = t->cap_mods ? 2 * t->cap_mods : 32;
            struct goldi_trace_module *nm = goldi_alloc(cap * sizeof *nm);
            if (t->n_mods)
                goldi_memcpy(nm, t->mods, t->n_mods * sizeof *nm);
            goldi_free(t->mods);
            t->mods = nm;
            t->cap_mods = cap;
        }
        t->mods[t->n_mods++] = m;
    }
    t->info.modules = t->mods;
    t->info.n_modules = t->n_mods;
    return 0;
}

static int parse_names(struct goldi_trace *t, const struct chunk *c, const uint8_t *p) {
    struct cur k = {.p = p, .len = c->raw_len};
    uint64_t n = get_u(&k);
    if (k.bad || n > c->raw_len)
        return fail_at(t, c->off, "malformed NAMES chunk", 0, 0);
    for (uint64_t i = 0; i < n; i++) {
        uint8_t kind = get_b(&k);
        uint64_t key = get_u(&k);
        char *s = get_s(&k);
        if (k.bad || kind >= GOLDI_TRACE_NAME_KINDS) {
            goldi_free(s);
            return fail_at(t, c->off, "malformed NAMES chunk (name %llu)", i, 0);
        }
        goldi_trace_name_set(kind, key, s, goldi_strlen(s));
        goldi_free(s);
    }
    return 0;
}

static int parse_end(struct goldi_trace *t, const struct chunk *c, const uint8_t *p) {
    struct cur k = {.p = p, .len = c->raw_len};
    t->info.n_threads = get_u(&k);
    t->info.n_events = get_u(&k);
    t->info.n_chunks = get_u(&k);
    t->info.n_dropped = get_u(&k);
    if (k.bad)
        return fail_at(t, c->off, "malformed END chunk", 0, 0);
    t->info.complete = true;
    return 0;
}

int goldi_trace_open(const void *data, size_t len, const struct goldi_trace_read_opts *opts,
                     struct goldi_trace **out, char *err, size_t errlen) {
    struct goldi_trace *t = goldi_alloc(sizeof *t);
    t->data = data;
    t->len = len;
    if (opts)
        t->opts = *opts;
    t->err = err;
    t->errlen = errlen;
    t->info.file_size = len;
    t->info.exe = t->info.tool = "";
    *out = NULL;
    if (err && errlen)
        err[0] = 0;
    const uint8_t *d = data;
    int rc = 0;
    if (len < GOLDI_TRC_FILE_HEADER || !goldi_trace_is_binary(data, len)) {
        rc = fail_at(t, 0, len < 8 ? "file too short for a trace header (%llu bytes)" : "not a Goldilocks binary trace (bad magic)",
                     len, 0);
        goto out;
    }
    t->info.version = (uint32_t)goldi_trc_get_le(d + 8, 2);
    if (t->info.version != GOLDI_TRC_VERSION) {
        rc = fail_at(t, 8, "unsupported trace version %llu (this goldi reads version %llu)", t->info.version,
                     GOLDI_TRC_VERSION);
        goto out;
    }
    uint64_t hsize = goldi_trc_get_le(d + 10, 2);
    if (goldi_trc_get_le(d + 12, 4) != 0) {
        rc = fail_at(t, 12, "reserved file header field is not zero", 0, 0);
        goto out;
    }
    if (hsize != GOLDI_TRC_FILE_HEADER) {
        rc = fail_at(t, 10, "bad file header size %llu", hsize, 0);
        goto out;
    }
    uint64_t off = GOLDI_TRC_FILE_HEADER;
    uint64_t n_chunks = 0;
    bool seen_meta = false;
    while (off < len) {
        if (t->info.complete) {
            rc = fail_at(t, off, "data after the END chunk", 0, 0);
            goto out;
        }
        if (len - off < GOLDI_TRC_CHUNK_HEADER) {
            if (t->opts.allow_partial)
                break;
            rc = fail_at(t, off, "truncated trace: chunk header cut off (%llu of 32 bytes)", len - off, 0);
            goto out;
        }
        const uint8_t *h = d + off;
        struct chunk c = {0};
        c.off = off;
        uint8_t type = h[0];
        c.codec = h[1];
        c.raw_len = (uint32_t)goldi_trc_get_le(h + 4, 4);
        c.stored_len = (uint32_t)goldi_trc_get_le(h + 8, 4);
        uint32_t check = (uint32_t)goldi_trc_get_le(h + 12, 4);
        uint32_t tid = (uint32_t)goldi_trc_get_le(h + 16, 4);
        c.n_records = (uint32_t)goldi_trc_get_le(h + 20, 4);
        c.first_seq = goldi_trc_get_le(h + 24, 8);
        if (type < GOLDI_TRC_META || type > GOLDI_TRC_END) {
            rc = fail_at(t, off, "unknown chunk type %llu", type, 0);
            goto out;
        }
        if (c.codec > GOLDI_TRC_ZSTD || goldi_trc_get_le(h + 2, 2) != 0) {
            rc = fail_at(t, off, "unknown chunk codec %llu", c.codec, 0);
            goto out;
        }
        if (c.raw_len > GOLDI_TRC_MAX_RAW || (c.codec == GOLDI_TRC_RAW && c.stored_len != c.raw_len)) {
            rc = fail_at(t, off, "bad chunk sizes (raw %llu, stored %llu)", c.raw_len, c.stored_len);
            goto out;
        }
        if (c.stored_len > len - off - GOLDI_TRC_CHUNK_HEADER) {
            if (t->opts.allow_partial)
                break;
            rc = fail_at(t, off, "truncated trace: chunk needs %llu payload bytes, the file has %llu",
                         c.stored_len, len - off - GOLDI_TRC_CHUNK_HEADER);
            goto out;
        }
        c.stored = h + GOLDI_TRC_CHUNK_HEADER;
        if (!t->opts.skip_checks && goldi_trc_chunk_check(h, c.stored, c.stored_len) != check) {
            rc = fail_at(t, off, "chunk check value mismatch (corrupt data)", 0, 0);
            goto out;
        }
        if (!seen_meta && type != GOLDI_TRC_META) {
            rc = fail_at(t, off, "the first chunk must be META", 0, 0);
            goto out;
        }
        n_chunks++;
        t->info.raw_size += c.raw_len;
        if (type == GOLDI_TRC_THREAD) {
            if (tid >= GOLDI_TRC_MAX_TID || c.n_records > c.raw_len) {
                rc = fail_at(t, off, "bad THREAD chunk header (tid %llu, %llu records)", tid, c.n_records);
                goto out;
            }
            stream_add(stream_for(t, tid), &c);
        } else {
            if (tid || c.n_records || c.first_seq) {
                rc = fail_at(t, off, "non-zero thread fields in a chunk of type %llu", type, 0);
                goto out;
            }
            if (type == GOLDI_TRC_META && seen_meta) {
                rc = fail_at(t, off, "second META chunk", 0, 0);
                goto out;
            }
            const uint8_t *p;
            uint8_t *owned;
            if ((rc = chunk_payload(t, &c, &p, &owned)))
                goto out;
            switch ((enum goldi_trc_chunk)type) {
            case GOLDI_TRC_META:
                rc = parse_meta(t, &c, p);
                seen_meta = true;
                break;
            case GOLDI_TRC_MODULES:
                rc = parse_modules(t, &c, p);
                break;
            case GOLDI_TRC_NAMES:
                rc = parse_names(t, &c, p);
                break;
            case GOLDI_TRC_END:
                rc = parse_end(t, &c, p);
                break;
            case GOLDI_TRC_THREAD:
                break;
            }
            goldi_free(owned);
            if (rc)
                goto out;
        }
        off += GOLDI_TRC_CHUNK_HEADER + c.stored_len;
    }
    if (!seen_meta) {
        rc = fail_at(t, off, "truncated trace: no META chunk", 0, 0);
        goto out;
    }
    if (!t->info.complete && !t->opts.allow_partial) {
        rc = fail_at(t, off, "truncated trace: no END chunk (the program did not exit normally?); "
                             "--partial analyzes what is there", 0, 0);
        goto out;
    }
    if (t->info.complete && t->info.n_chunks != n_chunks) {
        rc = fail_at(t, off, "END counts %llu chunks, the file has %llu", t->info.n_chunks, n_chunks);
        goto out;
    }
out:
    if (rc) {
        goldi_trace_close(t);
        return rc;
    }
    *out = t;
    return 0;
}

const struct goldi_trace_info *goldi_trace_get_info(const struct goldi_trace *t) { return &t->info; }

/* --- dictionaries ------------------------------------------------------------------ */

static struct origin_def *origin_slot(struct goldi_trace *t, uint32_t id) {
    uint32_t mask = t->cap_origins - 1;
    for (uint32_t i = (id * 2654435761u) & mask;; i = (i + 1) & mask)
        if (t->origins[i].id == id || t->origins[i].id == 0)
            return &t->origins[i];
}

static const struct origin_def *origin_find(struct goldi_trace *t, uint32_t id) {
    if (!t->cap_origins)
        return NULL;
    struct origin_def *o = origin_slot(t, id);
    return o->id ? o : NULL;
}

static void origin_grow(struct goldi_trace *t) {
    struct origin_def *old = t->origins;
    uint32_t old_cap = t->cap_origins;
    t->cap_origins = old_cap ? 2 * old_cap : 1024;
    t->origins = goldi_alloc(t->cap_origins * sizeof *t->origins);
    for (uint32_t i = 0; i < old_cap; i++)
        if (old[i].id)
            *origin_slot(t, old[i].id) = old[i];
    goldi_free(old);
}

static struct rthr *rthr_get(struct goldi_trace *t, goldi_tid_t tid) {
    if (tid >= t->cap_thr) {
        uint32_t cap = t->cap_thr ? t->cap_thr : 64;
        while (cap <= tid)
            cap *= 2;
        struct rthr **n = goldi_alloc(cap * sizeof *n);
        if (t->cap_thr)
            goldi_memcpy(n, t->thr, t->cap_thr * sizeof *n);
        goldi_free(t->thr);
        t->thr = n;
        t->cap_thr = cap;
    }
    if (!t->thr[tid]) {
        struct rthr *r = goldi_alloc(sizeof *r);
        r->info.tid = tid;
        r->info.parent = GOLDI_TID_NONE;
        t->thr[tid] = r;
    }
    return t->thr[tid];
}

static struct life *life_slot(struct goldi_trace *t, uint64_t addr) {
    uint32_t mask = t->cap_lives - 1;
    for (uint32_t i = (uint32_t)((addr * 0x9E3779B97F4A7C15ull) >> 40) & mask;; i = (i + 1) & mask)
        if (!t->lives[i].used || t->lives[i].addr == addr)
            return &t->lives[i];
}

/* Records the life of the object at s->addr; true if it changed since the
 * last event on it (so the replay must start a new life too). A barrier's
 * generation renews one token per generation (dispatch does the same), a new
 * life renews both. */
static bool life_changed(struct goldi_trace *t, const struct srec *s) {
    if (2 * (t->n_lives + 1) > t->cap_lives) {
        struct life *old = t->lives;
        uint32_t old_cap = t->cap_lives;
        t->cap_lives = old_cap ? 2 * old_cap : 1024;
        t->lives = goldi_alloc(t->cap_lives * sizeof *t->lives);
        for (uint32_t i = 0; i < old_cap; i++)
            if (old[i].used)
                *life_slot(t, old[i].addr) = old[i];
        goldi_free(old);
    }
    struct life *l = life_slot(t, s->addr);
    bool changed = false;
    if (l->used) {
        bool two = s->kind == GOLDI_SYNC_RWLOCK || s->kind == GOLDI_SYNC_BARRIER;
        changed = s->kind == GOLDI_SYNC_BARRIER ? (l->tok0 != s->tok0 && l->tok1 != s->tok1)
                  : two ? (l->tok0 != s->tok0 || l->tok1 != s->tok1)
                        : l->tok0 != s->tok0;
    } else {
        l->used = true;
        l->addr = s->addr;
        t->n_lives++;
    }
    l->tok0 = s->tok0;
    l->tok1 = s->tok1;
    return changed;
}

/* --- decoding ------------------------------------------------------------------------ */

static int load_chunk(struct goldi_trace *t, struct stream *s) {
    goldi_free(s->owned);
    s->owned = NULL;
    const struct chunk *c = &s->chunks[s->ci];
    int rc = chunk_payload(t, c, &s->p, &s->owned);
    if (rc)
        return rc;
    s->len = c->raw_len;
    s->pos = 0;
    s->left = c->n_records;
    s->prev_seq = c->first_seq ? c->first_seq - 1 : 0;
    s->prev_origin = 0;
    s->prev_addr = 0;
    s->prev_sync = 0;
    return 0;
}

static bool get_sync(struct cur *k, struct srec *o, uint64_t base) {
    o->addr = base + (uint64_t)goldi_trc_unzigzag(get_u(k));
    o->kind = get_b(k);
    o->tok0 = get_u(k);
    o->tok1 = (o->kind == GOLDI_SYNC_RWLOCK || o->kind == GOLDI_SYNC_BARRIER) ? get_u(k) : 0;
    return !k->bad && o->kind < GOLDI_SYNC_KIND_COUNT && o->addr < GOLDI_TRC_MAX_ADDR;
}

static int def_origin(struct goldi_trace *t, struct stream *s, struct cur *k, uint32_t at) {
    uint64_t id = get_u(k);
    uint64_t tid = get_u(k);
    (void)get_u(k);              /* size, flags: the replay recomputes them */
    (void)get_u(k);
    uint64_t nf = get_u(k);
    if (k->bad || !id || id > UINT32_MAX || tid >= GOLDI_TRC_MAX_TID || nf > GOLDI_TRC_MAX_FRAMES)
        return fail_rec(t, s, at, "malformed origin definition (id %llu, %llu frames)", id, nf);
    uint64_t frames[GOLDI_TRC_MAX_FRAMES];
    uint64_t prev = 0;
    for (uint64_t i = 0; i < nf; i++) {
        prev += (uint64_t)goldi_trc_unzigzag(get_u(k));
        frames[i] = prev;
    }
    uint64_t nh = get_u(k);
    if (k->bad || nh > GOLDI_TRC_MAX_HELD)
        return fail_rec(t, s, at, "malformed origin definition %llu", id, 0);
    for (uint64_t i = 0; i < nh; i++) {
        (void)get_u(k);
        if (get_b(k) > GOLDI_LOCK_SHARED)
            k->bad = true;
    }
    if (k->bad)
        return fail_rec(t, s, at, "malformed origin definition %llu", id, 0);
    if (2 * (t->n_origins + 1) > t->cap_origins)
        origin_grow(t);
    goldi_idset_add(&s->defined, (uint32_t)id);
    struct origin_def *o = origin_slot(t, (uint32_t)id);
    if (o->id) {   /* every stream that uses an origin defines it: the same frames each time */
        bool same = o->n_frames == nf;
        for (uint64_t i = 0; same && i < nf; i++)
            same = o->frames[i] == frames[i];
        if (!same)
            return fail_rec(t, s, at, "origin %llu defined twice with different frames", id, 0);
        return 0;
    }
    o->id = (uint32_t)id;
    o->n_frames = (uint32_t)nf;
    o->frames = goldi_alloc((nf ? nf : 1) * sizeof *o->frames);
    for (uint64_t i = 0; i < nf; i++)
        o->frames[i] = frames[i];
    t->n_origins++;
    return 0;
}

static int thread_info(struct goldi_trace *t, struct stream *s, struct cur *k, uint32_t at) {
    uint64_t parent = get_u(k), os_tid = get_u(k);
    uint64_t slo = get_u(k), slen = get_u(k), tlo = get_u(k), tlen = get_u(k);
    if (k->bad || parent > GOLDI_TRC_MAX_TID || os_tid > 0x7fffffff)
        return fail_rec(t, s, at, "malformed thread info", 0, 0);
    struct rthr *r = rthr_get(t, s->tid);
    if (r->has_info)
        return fail_rec(t, s, at, "second thread info record of the thread", 0, 0);
    r->has_info = true;
    r->info.os_tid = (int)os_tid;
    r->info.stack_lo = slo;
    r->info.stack_hi = slo + slen;
    r->info.tls_lo = tlo;
    r->info.tls_hi = tlo + tlen;
    return 0;
}

/* Decodes records of s until its next event (or its end). */
static int advance(struct goldi_trace *t, struct stream *s) {
    s->has_rec = false;
    for (;;) {
        if (s->done)
            return 0;
        if (!s->left) {
            if (s->pos != s->len)
                return fail_rec(t, s, s->pos, "%llu bytes after the last record of the chunk", s->len - s->pos, 0);
            if (++s->ci >= s->n_chunks) {
                s->done = true;
                goldi_free(s->owned);
                s->owned = NULL;
                return 0;
            }
            int rc = load_chunk(t, s);
            if (rc)
                return rc;
            continue;
        }
        s->left--;
        struct cur k = {.p = s->p, .len = s->len, .pos = s->pos};
        uint32_t at = s->pos;
        uint8_t head = get_b(&k);
        if (k.bad)
            return fail_rec(t, s, at, "chunk ends before its %llu records", s->chunks[s->ci].n_records, 0);
        uint8_t op = head & GOLDI_TRC_OP_MASK;
        int rc;
        if (op == GOLDI_TRC_OP_DEF_ORIGIN || op == GOLDI_TRC_OP_THREAD_INFO) {
            if (head != op)
                return fail_rec(t, s, at, "flags on a definition record (0x%llx)", head, 0);
            rc = op == GOLDI_TRC_OP_DEF_ORIGIN ? def_origin(t, s, &k, at) : thread_info(t, s, &k, at);
            if (rc)
                return rc;
            s->pos = k.pos;
            continue;
        }
        if (op >= GOLDI_TRC_N_EVENT_OPS || (head & 0x80))
            return fail_rec(t, s, at, "unknown record op %llu (head 0x%llx)", op, head);
        struct rec *r = &s->rec;
        goldi_memset(r, 0, sizeof *r);
        r->kind = op;
        r->at = at;
        uint64_t d = (head & GOLDI_TRC_SEQ_NEXT) ? 1 : get_u(&k);
        if (!d || d > UINT64_MAX - s->prev_seq)
            return fail_rec(t, s, at, "bad sequence delta %llu", d, 0);
        r->seq = s->prev_seq + d;
        if (r->seq <= s->last_seq)
            return fail_rec(t, s, at, "sequence number %llu not after the thread's previous %llu", r->seq,
                            s->last_seq);
        s->prev_seq = s->last_seq = r->seq;
        if (head & GOLDI_TRC_SAME_ORIGIN) {
            r->origin = s->prev_origin;
        } else {
            uint64_t o = get_u(&k);
            if (o > UINT32_MAX)
                return fail_rec(t, s, at, "bad origin id %llu", o, 0);
            r->origin = (uint32_t)o;
            if (o && !goldi_idset_has(&s->defined, r->origin))
                return fail_rec(t, s, at, "origin %llu used before this thread's stream defines it", o, 0);
        }
        s->prev_origin = r->origin;
        uint64_t v;
        bool ok = true;
        switch ((enum goldi_trc_op)op) {
        case GOLDI_TRC_OP_FORK:
        case GOLDI_TRC_OP_JOIN:
            v = get_u(&k);
            ok = v < GOLDI_TRC_MAX_TID;
            r->other = (goldi_tid_t)v;
            break;
        case GOLDI_TRC_OP_EXIT:
            break;
        case GOLDI_TRC_OP_LOCK_ACQ:
        case GOLDI_TRC_OP_LOCK_REL:
            ok = get_sync(&k, &r->obj, s->prev_sync);
            s->prev_sync = r->obj.addr;
            r->mode = get_b(&k);
            ok = ok && r->mode <= GOLDI_LOCK_SHARED;
            break;
        case GOLDI_TRC_OP_WAIT_ENTER:
        case GOLDI_TRC_OP_WAIT_EXIT:
            ok = get_sync(&k, &r->obj, s->prev_sync);
            s->prev_sync = r->obj.addr;
            ok = get_sync(&k, &r->obj2, s->prev_sync) && ok;
            s->prev_sync = r->obj2.addr;
            break;
        case GOLDI_TRC_OP_SIGNAL:
        case GOLDI_TRC_OP_BROADCAST:
        case GOLDI_TRC_OP_SEM_POST:
        case GOLDI_TRC_OP_SEM_WAIT:
        case GOLDI_TRC_OP_ONCE_DONE:
        case GOLDI_TRC_OP_ONCE_RET:
            ok = get_sync(&k, &r->obj, s->prev_sync);
            s->prev_sync = r->obj.addr;
            break;
        case GOLDI_TRC_OP_BAR_ARRIVE:
        case GOLDI_TRC_OP_BAR_DEPART:
            ok = get_sync(&k, &r->obj, s->prev_sync);
            s->prev_sync = r->obj.addr;
            r->gen = get_u(&k);
            v = get_u(&k);
            ok = ok && v <= UINT32_MAX;
            r->bar_count = (uint32_t)v;
            break;
        case GOLDI_TRC_OP_ATOMIC_LOAD:
        case GOLDI_TRC_OP_ATOMIC_STORE:
        case GOLDI_TRC_OP_ATOMIC_RMW:
        case GOLDI_TRC_OP_ATOMIC_CASFAIL:
            r->addr = s->prev_addr + (uint64_t)goldi_trc_unzigzag(get_u(&k));
            s->prev_addr = r->addr;
            v = get_u(&k);
            ok = v <= 16;
            r->size = (uint32_t)v;
            r->mo = get_b(&k);
            ok = ok && r->mo <= GOLDI_MO_SEQ_CST;
            ok = get_sync(&k, &r->obj, r->addr) && ok;
            break;
        case GOLDI_TRC_OP_FENCE:
            r->mo = get_b(&k);
            ok = r->mo <= GOLDI_MO_SEQ_CST;
            break;
        case GOLDI_TRC_OP_READ:
        case GOLDI_TRC_OP_WRITE:
            r->addr = s->prev_addr + (uint64_t)goldi_trc_unzigzag(get_u(&k));
            s->prev_addr = r->addr;
            v = get_u(&k);
            r->flags = (v & 1) ? GOLDI_EVF_RANGE : 0;
            v >>= 1;
            ok = v <= GOLDI_TRC_MAX_ACCESS;
            r->size = (uint32_t)v;
            break;
        case GOLDI_TRC_OP_ALLOC:
        case GOLDI_TRC_OP_FREE:
            r->addr = s->prev_addr + (uint64_t)goldi_trc_unzigzag(get_u(&k));
            s->prev_addr = r->addr;
            v = get_u(&k);
            ok = v <= GOLDI_TRC_MAX_ACCESS;
            r->size = (uint32_t)v;
            break;
        case GOLDI_TRC_OP_DEF_ORIGIN:
        case GOLDI_TRC_OP_THREAD_INFO:
            break;
        }
        if (k.bad)
            return fail_rec(t, s, at, "record cut off by the end of the chunk", 0, 0);
        if (!ok || r->addr >= GOLDI_TRC_MAX_ADDR || GOLDI_TRC_MAX_ADDR - r->addr < r->size)
            return fail_rec(t, s, at, "invalid field in a record of op %llu", op, 0);
        s->pos = k.pos;
        s->has_rec = true;
        return 0;
    }
}

/* Event kind of every on-disk op (format.h); event.inc may renumber. */
static const uint8_t kind_of_op[GOLDI_TRC_N_EVENT_OPS] = {
    [GOLDI_TRC_OP_FORK] = GOLDI_EV_FORK, [GOLDI_TRC_OP_EXIT] = GOLDI_EV_EXIT, [GOLDI_TRC_OP_JOIN] = GOLDI_EV_JOIN,
    [GOLDI_TRC_OP_LOCK_ACQ] = GOLDI_EV_LOCK_ACQ, [GOLDI_TRC_OP_LOCK_REL] = GOLDI_EV_LOCK_REL,
    [GOLDI_TRC_OP_WAIT_ENTER] = GOLDI_EV_WAIT_ENTER, [GOLDI_TRC_OP_WAIT_EXIT] = GOLDI_EV_WAIT_EXIT,
    [GOLDI_TRC_OP_SIGNAL] = GOLDI_EV_SIGNAL, [GOLDI_TRC_OP_BROADCAST] = GOLDI_EV_BROADCAST,
    [GOLDI_TRC_OP_BAR_ARRIVE] = GOLDI_EV_BAR_ARRIVE, [GOLDI_TRC_OP_BAR_DEPART] = GOLDI_EV_BAR_DEPART,
    [GOLDI_TRC_OP_SEM_POST] = GOLDI_EV_SEM_POST, [GOLDI_TRC_OP_SEM_WAIT] = GOLDI_EV_SEM_WAIT,
    [GOLDI_TRC_OP_ONCE_DONE] = GOLDI_EV_ONCE_DONE, [GOLDI_TRC_OP_ONCE_RET] = GOLDI_EV_ONCE_RET,
    [GOLDI_TRC_OP_ATOMIC_LOAD] = GOLDI_EV_ATOMIC_LOAD, [GOLDI_TRC_OP_ATOMIC_STORE] = GOLDI_EV_ATOMIC_STORE,
    [GOLDI_TRC_OP_ATOMIC_RMW] = GOLDI_EV_ATOMIC_RMW, [GOLDI_TRC_OP_ATOMIC_CASFAIL] = GOLDI_EV_ATOMIC_CASFAIL,
    [GOLDI_TRC_OP_FENCE] = GOLDI_EV_FENCE, [GOLDI_TRC_OP_READ] = GOLDI_EV_READ, [GOLDI_TRC_OP_WRITE] = GOLDI_EV_WRITE,
    [GOLDI_TRC_OP_ALLOC] = GOLDI_EV_ALLOC, [GOLDI_TRC_OP_FREE] = GOLDI_EV_FREE,
};

/* --- replay ----------------------------------------------------------------------------- */

static bool stream_less(const struct stream *a, const struct stream *b) {
    return a->rec.seq < b->rec.seq || (a->rec.seq == b->rec.seq && a->tid < b->tid);
}

static void heap_down(struct stream **h, uint32_t n, uint32_t i) {
    for (;;) {
        uint32_t l = 2 * i + 1, m = i;
        if (l < n && stream_less(h[l], h[m]))
            m = l;
        if (l + 1 < n && stream_less(h[l + 1], h[m]))
            m = l + 1;
        if (m == i)
            return;
        struct stream *x = h[i];
        h[i] = h[m];
        h[m] = x;
        i = m;
    }
}

struct replay {
    struct goldi_trace *t;
    bool dispatch;
    struct stream *s;           /* stream of the current record (errors) */
};

static int thread_acts(struct replay *rp, goldi_tid_t tid, struct rthr **out) {
    struct goldi_trace *t = rp->t;
    struct rthr *r = rthr_get(t, tid);
    if (r->state == TS_EXITED || r->state == TS_JOINED)
        return fail_rec(t, rp->s, rp->s->rec.at, "thread T%llu acts after its exit", tid, 0);
    if (r->state == TS_NONE) {
        /* T0, or a thread whose creation was not recorded: a root thread. */
        r->state = TS_RUNNING;
        r->info.running = true;
        if (rp->dispatch) {
            r->thr = goldi_alloc(sizeof *r->thr);
            r->thr->tid = tid;
            r->thr->parent = GOLDI_TID_NONE;
        }
    }
    *out = r;
    return 0;
}

/* Puts the frames of recorded origin id on r's shadow stack. */
static int set_stack(struct replay *rp, struct rthr *r, uint32_t id, uintptr_t *pc) {
    if (id == r->cur_origin && id) {
        const struct origin_def *o = origin_find(rp->t, id);
        *pc = o && o->n_frames ? (uintptr_t)o->frames[0] : 0;
        return 0;
    }
    const struct origin_def *o = id ? origin_find(rp->t, id) : NULL;
    if (id && !o)
        return fail_rec(rp->t, rp->s, rp->s->rec.at, "event uses origin %llu before its definition", id, 0);
    r->cur_origin = id;
    *pc = o && o->n_frames ? (uintptr_t)o->frames[0] : 0;
    if (!rp->dispatch)
        return 0;
    struct goldi_thr *thr = r->thr;
    uint32_t depth = o && o->n_frames ? o->n_frames - 1 : 0;
    for (uint32_t j = 0; j < depth; j++)
        thr->stack[j] = (uintptr_t)o->frames[depth - j];
    thr->depth = depth;
    goldi_thr_stack_changed(thr);
    return 0;
}

static struct goldi_sync *replay_sync(struct replay *rp, const struct srec *s) {
    bool changed = life_changed(rp->t, s);
    if (!rp->dispatch)
        return NULL;
    if (changed)
        goldi_sync_reset(s->addr);
    struct goldi_sync *o = goldi_sync_get(s->addr, s->kind);
    o->kind = s->kind;
    return o;
}

static void end_thread(struct replay *rp, struct rthr *c, uintptr_t pc) {
    c->state = TS_EXITED;
    c->info.running = false;
    if (!rp->dispatch)
        return;
    struct goldi_event ex;
    goldi_memset(&ex, 0, sizeof ex);
    ex.kind = GOLDI_EV_EXIT;
    ex.thr = c->thr;
    ex.pc = pc;
    goldi_dispatch(&ex);
}

static int replay_one(struct replay *rp, const struct rec *r) {
    struct goldi_trace *t = rp->t;
    struct rthr *th = NULL;
    int rc = thread_acts(rp, rp->s->tid, &th);
    if (rc)
        return rc;
    struct goldi_event ev;
    goldi_memset(&ev, 0, sizeof ev);
    if ((rc = set_stack(rp, th, r->origin, &ev.pc)))
        return rc;
    ev.kind = kind_of_op[r->kind];
    ev.mo = r->mo;
    ev.mode = r->mode;
    ev.flags = r->flags;
    ev.size = r->size;
    ev.addr = (uintptr_t)r->addr;
    ev.gen = r->gen;
    ev.thr = th->thr;
    struct rthr *other = NULL;
    switch ((enum goldi_event_kind)ev.kind) {
    case GOLDI_EV_FORK:
        other = rthr_get(t, r->other);
        if (other == th || other->state != TS_NONE)
            return fail_rec(t, rp->s, r->at, "FORK of T%llu, which already exists", r->other, 0);
        other->state = TS_RUNNING;
        other->info.running = true;
        other->info.parent = rp->s->tid;
        if (rp->dispatch) {
            other->thr = goldi_alloc(sizeof *other->thr);
            other->thr->tid = r->other;
            other->thr->parent = rp->s->tid;
            ev.other = other->thr;
        }
        break;
    case GOLDI_EV_JOIN:
        other = r->other < t->cap_thr ? t->thr[r->other] : NULL;
        if (!other || other == th || other->state == TS_NONE || other->state == TS_JOINED)
            return fail_rec(t, rp->s, r->at, "JOIN of T%llu, which is unknown, itself or already joined",
                            r->other, 0);
        if (other->state == TS_RUNNING)
            end_thread(rp, other, ev.pc);   /* join returns after the child ended */
        ev.other = other->thr;
        break;
    case GOLDI_EV_EXIT:
        th->state = TS_EXITED;
        th->info.running = false;
        break;
    case GOLDI_EV_LOCK_ACQ:
    case GOLDI_EV_LOCK_REL:
    case GOLDI_EV_SIGNAL:
    case GOLDI_EV_BROADCAST:
    case GOLDI_EV_SEM_POST:
    case GOLDI_EV_SEM_WAIT:
    case GOLDI_EV_ONCE_DONE:
    case GOLDI_EV_ONCE_RET:
    case GOLDI_EV_ATOMIC_LOAD:
    case GOLDI_EV_ATOMIC_STORE:
    case GOLDI_EV_ATOMIC_RMW:
    case GOLDI_EV_ATOMIC_CASFAIL:
        ev.obj = replay_sync(rp, &r->obj);
        break;
    case GOLDI_EV_WAIT_ENTER:
    case GOLDI_EV_WAIT_EXIT:
        ev.obj = replay_sync(rp, &r->obj);
        ev.obj2 = replay_sync(rp, &r->obj2);
        break;
    case GOLDI_EV_BAR_ARRIVE:
    case GOLDI_EV_BAR_DEPART:
        ev.obj = replay_sync(rp, &r->obj);
        if (ev.obj)
            ev.obj->bar_count = r->bar_count;
        break;
    case GOLDI_EV_ATOMIC_READ_SYNC:
    case GOLDI_EV_FENCE:
    case GOLDI_EV_READ:
    case GOLDI_EV_WRITE:
    case GOLDI_EV_ALLOC:
    case GOLDI_EV_FREE:
    case GOLDI_EV_COUNT:
        break;
    }
    if (!rp->dispatch) {
        if (ev.kind == GOLDI_EV_JOIN)
            other->state = TS_JOINED;
        return 0;
    }
    goldi_dispatch_as_live(&ev);
    switch ((enum goldi_event_kind)ev.kind) {
    case GOLDI_EV_FORK:
        other->info.create_origin = other->thr->create_origin = goldi_event_origin(&ev);
        break;
    case GOLDI_EV_JOIN:
        other->state = TS_JOINED;
        goldi_dispatch_thr_free(other->thr);
        goldi_free(other->thr);
        other->thr = NULL;
        break;
    case GOLDI_EV_ALLOC:
    case GOLDI_EV_FREE:
        /* as the malloc/free interceptors do: no sync object outlives its block */
        if (r->size)
            goldi_sync_forget_range(ev.addr, r->size);
        break;
    default:
        break;
    }
    return 0;
}

int goldi_trace_replay(struct goldi_trace *t, bool dispatch, uint64_t *n_events, char *err, size_t errlen) {
    t->err = err;
    t->errlen = errlen;
    if (err && errlen)
        err[0] = 0;
    uint64_t n = 0;
    int rc = 0;
    struct stream **heap = goldi_alloc((t->n_streams ? t->n_streams : 1) * sizeof *heap);
    uint32_t nh = 0;
    for (uint32_t i = 0; i < t->n_streams; i++) {
        struct stream *s = &t->streams[i];
        s->ci = 0;
        if ((rc = load_chunk(t, s)) || (rc = advance(t, s)))
            goto out;
        if (s->has_rec)
            heap[nh++] = s;
    }
    for (uint32_t i = nh / 2; i-- > 0;)
        heap_down(heap, nh, i);
    struct replay rp = {.t = t, .dispatch = dispatch};
    while (nh) {
        struct stream *s = heap[0];
        rp.s = s;
        struct rec r = s->rec;
        if ((rc = replay_one(&rp, &r)))
            goto out;
        n++;
        if ((rc = advance(t, s)))
            goto out;
        if (!s->has_rec)
            heap[0] = heap[--nh];
        heap_down(heap, nh, 0);
    }
out:
    goldi_free(heap);
    if (n_events)
        *n_events = n;
    return rc;
}

bool goldi_trace_thread_get(const struct goldi_trace *t, goldi_tid_t tid, struct goldi_trace_thread *out) {
    if (tid >= t->cap_thr || !t->thr[tid])
        return false;
    *out = t->thr[tid]->info;
    return true;
}

void goldi_trace_close(struct goldi_trace *t) {
    if (!t)
        return;
    for (uint32_t i = 0; i < t->n_streams; i++) {
        goldi_free(t->streams[i].chunks);
        goldi_free(t->streams[i].owned);
        goldi_idset_free(&t->streams[i].defined);
    }
    goldi_free(t->streams);
    for (uint32_t i = 0; i < t->n_mods; i++) {
        goldi_free((void *)t->mods[i].path);
        goldi_free((void *)t->mods[i].ranges);
    }
    goldi_free(t->mods);
    for (uint32_t i = 0; i < t->cap_origins; i++)
        goldi_free(t->origins[i].frames);
    goldi_free(t->origins);
    for (uint32_t i = 0; i < t->cap_thr; i++)
        goldi_free(t->thr[i]);   /* goldi_thr of unjoined threads stay: engines may point at them */
    goldi_free(t->thr);
    goldi_free(t->lives);
    goldi_free(t->exe);
    goldi_free(t->tool);
    goldi_free(t);
}
