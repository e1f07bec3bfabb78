/* The differential suite's oracle (ALGORITHMS.md §3): deliberately naive.
 * It builds the explicit happens-before graph of a trace (one node per event;
 * edges = program order + every synchronization edge of §1.2, written as
 * "which earlier event does this one synchronize with"), closes it by
 * reachability over bitsets, and computes FULL(b,ℓ), WX(b,ℓ) and the
 * canonical kind per byte and lifetime. No vector clocks anywhere: it must
 * not share the engines' method. */
#ifndef DIFF_ORACLE_H
#define DIFF_ORACLE_H

#include "dtrace.h"

enum { K_NONE, K_WW, K_WR, K_RW };
extern const char *const diff_kind_names[4];

#define O_NONE UINT32_MAX

/* First race of one byte in one lifetime. */
struct obyte {
    uint16_t loc;
    uint8_t off;
    uint32_t life;      /* number of alloc/free events on this byte before */
    uint32_t full;      /* FULL(b,ℓ) event index or O_NONE */
    uint32_t wx;        /* WX(b,ℓ) */
    uint8_t full_kind;  /* canonical kind at FULL */
    uint8_t wx_kind;    /* WW or WR */
};

struct oracle {
    const struct dtrace *t;
    uint32_t n, words;
    uint64_t *anc;      /* anc[i*words ..]: bit j set iff e_j ->hb e_i (j != i) */
    struct obyte *b;    /* every (byte, lifetime) that was accessed, in no particular order */
    uint32_t nb, capb;
    uint32_t n_edges;   /* sync + program-order edges (statistics) */
    uint32_t *pp;       /* program-order predecessor of each event (O_NONE: none) */
    bool check_first;   /* see diff_oracle_check_first */
};

/* How an atomic access with an acquire read half (ld/casfail/rmw with an
 * acquire-ish order) is ordered against earlier accesses:
 *   false (default, C11): the access is ordered after everything its own
 *          acquire synchronizes with ([intro.races]: the release store
 *          synchronizes with the load itself);
 *   true:  checked with the clock from *before* its acquire, as the engines
 *          do (event.h: "Access checks for atomic events happen before
 *          steps") and as reference-oracle/oracle.py does.
 * See docs/differential.md, "check-first". */
extern bool diff_oracle_check_first;

void diff_oracle_run(const struct dtrace *t, struct oracle *o);
void diff_oracle_free(struct oracle *o);

static inline bool diff_oracle_hb(const struct oracle *o, uint32_t j, uint32_t i) {
    return j < i && ((o->anc[(size_t)i * o->words + j / 64] >> (j % 64)) & 1);
}
/* Is e_j ordered before the *access* of e_i (differs from hb only for an
 * acquiring atomic e_i in check-first mode)? */
bool diff_oracle_access_ordered(const struct oracle *o, uint32_t j, uint32_t i);

/* Lifetime of byte (loc, off) at event idx (alloc/free events on it before idx). */
uint32_t diff_oracle_life(const struct dtrace *t, uint32_t loc, uint32_t off, uint32_t idx);
/* The (byte, lifetime) record, or NULL if never accessed. */
const struct obyte *diff_oracle_byte(const struct oracle *o, uint32_t loc, uint32_t off, uint32_t life);
/* Does e_j (j < i) conflict with e_i on byte (loc, off) in the same lifetime
 * without happens-before ordering them? (a race pair of §1.4) */
bool diff_oracle_race_pair(const struct oracle *o, uint32_t j, uint32_t i, uint32_t loc, uint32_t off);
/* Does some earlier access race with e_i on (loc, off)? want_write: only writes. */
bool diff_oracle_races_at(const struct oracle *o, uint32_t i, uint32_t loc, uint32_t off, bool want_write);

#endif
