/* Process-wide name table (names.h): open addressing on (kind, key), entries
 * in insertion order so NAMES chunks and exports are deterministic. Used by
 * single-threaded producers (importers, the reader): one spinlock suffices. */
#include "names.h"
#include "../base/alloc.h"
#include "../base/fmt.h"
#include "../base/spinlock.h"

struct ent {
    uint64_t key;
    unsigned kind;
    char *name;
};

static goldi_spinlock_t lock = GOLDI_SPINLOCK_INIT;
static struct ent *ents;          /* insertion order */
static size_t n_ents, cap_ents;
static uint32_t *slots;           /* index + 1, 0 = empty */
static size_t cap_slots;

static size_t hash(unsigned kind, uint64_t key) {
    uint64_t h = (key ^ ((uint64_t)kind << 59)) * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 17);
}

static uint32_t *slot_of_locked(unsigned kind, uint64_t key) {
    size_t mask = cap_slots - 1;
    for (size_t i = hash(kind, key) & mask;; i = (i + 1) & mask) {
        uint32_t v = slots[i];
        if (!v || (ents[v - 1].kind == kind && ents[v - 1].key == key))
            return &slots[i];
    }
}

static void rehash_locked(size_t cap) {
    goldi_free(slots);
    slots = goldi_alloc(cap * sizeof *slots);
    cap_slots = cap;
    for (size_t i = 0; i < n_ents; i++)
        *slot_of_locked(ents[i].kind, ents[i].key) = (uint32_t)(i + 1);
}

void goldi_trace_name_set(unsigned kind, uint64_t key, const char *name, size_t len) {
    char *copy = goldi_alloc(len + 1);
    goldi_memcpy(copy, name, len);
    copy[len] = 0;
    goldi_spin_lock(&lock);
    if (2 * (n_ents + 1) > cap_slots)
        rehash_locked(cap_slots ? 2 * cap_slots : 256);
    uint32_t *s = slot_of_locked(kind, key);
    if (*s) {
        goldi_free(ents[*s - 1].name);
        ents[*s - 1].name = copy;
    } else {
        if (n_ents == cap_ents) {
            size_t cap = cap_ents ? 2 * cap_ents : 128;
            struct ent *e = goldi_alloc(cap * sizeof *e);
            if (n_ents)
                goldi_memcpy(e, ents, n_ents * sizeof *e);
            goldi_free(ents);
            ents = e;
            cap_ents = cap;
        }
        ents[n_ents] = (struct ent){.key = key, .kind = kind, .name = copy};
        *s = (uint32_t)++n_ents;
    }
    goldi_spin_unlock(&lock);
}

const char *goldi_trace_name_get(unsigned kind, uint64_t key) {
    const char *r = NULL;
    goldi_spin_lock(&lock);
    if (cap_slots) {
        uint32_t v = *slot_of_locked(kind, key);
        if (v)
            r = ents[v - 1].name;
    }
    goldi_spin_unlock(&lock);
    return r;
}

size_t goldi_trace_name_count(void) { return n_ents; }

void goldi_trace_name_for_each(void (*fn)(void *ctx, unsigned kind, uint64_t key, const char *name), void *ctx) {
    for (size_t i = 0; i < n_ents; i++)
        fn(ctx, ents[i].kind, ents[i].key, ents[i].name);
}

void goldi_trace_name_clear(void) {
    goldi_spin_lock(&lock);
    for (size_t i = 0; i < n_ents; i++)
        goldi_free(ents[i].name);
    goldi_free(ents);
    goldi_free(slots);
    ents = NULL;
    slots = NULL;
    n_ents = cap_ents = cap_slots = 0;
    goldi_spin_unlock(&lock);
}
