/* Random well-formed executions for the differential suite (ALGORITHMS.md §3):
 * a seeded scheduler simulates threads over the primitives of §1.2 and emits
 * the events it performs, so every trace respects locks, joins after exit,
 * barrier generations, semaphore counts and once; atomic reads read the
 * latest store in trace order by construction of the format. */
#ifndef DIFF_GEN_H
#define DIFF_GEN_H

#include "dtrace.h"

struct gen_opts {
    uint32_t min_events, max_events;  /* trace length (the run may stop early if all threads block) */
    uint32_t max_threads;             /* including T0 */
    bool lock_only;                   /* only fork/exit/join, mutexes, rwlocks and plain accesses */
    bool py_subset;                   /* only what reference-oracle/oracle.py understands: whole 8-byte
                                         locations, no heap, barriers, semaphores, once, casfail */
};

void diff_gen_defaults(struct gen_opts *o);
/* Fills t (initialised here) with the trace of seed. Same seed and options,
 * same trace. */
void diff_gen(uint64_t seed, const struct gen_opts *o, struct dtrace *t);

/* Small seeded PRNG (splitmix64), shared by the suite's random choices. */
struct diff_rng { uint64_t s; };
static inline uint64_t diff_rng_next(struct diff_rng *r) {
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static inline uint32_t diff_rng_below(struct diff_rng *r, uint32_t n) {
    return n ? (uint32_t)(diff_rng_next(r) % n) : 0;
}

#endif
