/* Shared scaffolding for the benchmark workloads: -t/-n parsing, thread
 * fan-out, timing and the checksum line the harness greps. Header-only so
 * every workload is a single translation unit built with identical flags. */
#ifndef GOLDI_BENCH_H
#define GOLDI_BENCH_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_setaffinity (BENCH_PIN below); bench.h comes first everywhere */
#endif
#include <errno.h>
#include <sched.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct bench_args {
    int threads;   /* -t: worker threads */
    long size;     /* -n: problem size (meaning is per workload, see its usage line) */
    int quiet;     /* -q: only the checksum line */
};

/* The last line is for bench/run.sh, which reads each workload's defaults
 * from it (one source of truth) and scales -n by work^(1/work_exponent) when
 * a tool gets a smaller problem. */
static inline void bench_usage(FILE *f, const char *name, const char *size_doc, int def_t, long def_n,
                               int work_exp)
{
    fprintf(f,
            "usage: %s [-t THREADS] [-n SIZE] [-q]\n"
            "  -t THREADS  worker threads (default %d)\n"
            "  -n SIZE     %s (default %ld; work grows as SIZE^%d)\n"
            "  -q          print only the checksum line\n"
            "defaults: threads=%d size=%ld work_exponent=%d\n",
            name, def_t, size_doc, def_n, work_exp, def_t, def_n, work_exp);
}

/* Exits with 2 on a bad command line so the harness can tell usage errors
 * from verification failures (exit 1). */
static inline struct bench_args bench_parse(int argc, char **argv, const char *name,
                                            const char *size_doc, int def_t, long def_n, int work_exp)
{
    struct bench_args a = {def_t, def_n, 0};
    int c;
    while ((c = getopt(argc, argv, "t:n:qh")) != -1) {
        char *end = NULL;
        switch (c) {
        case 't':
            a.threads = (int)strtol(optarg, &end, 10);
            if (*end || a.threads < 1 || a.threads > 4096) {
                fprintf(stderr, "%s: bad -t '%s'\n", name, optarg);
                exit(2);
            }
            break;
        case 'n':
            a.size = strtol(optarg, &end, 10);
            if (*end || a.size < 1) {
                fprintf(stderr, "%s: bad -n '%s'\n", name, optarg);
                exit(2);
            }
            break;
        case 'q':
            a.quiet = 1;
            break;
        case 'h':
            bench_usage(stdout, name, size_doc, def_t, def_n, work_exp);
            exit(0);
        default:
            bench_usage(stderr, name, size_doc, def_t, def_n, work_exp);
            exit(2);
        }
    }
    return a;
}

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline void *bench_xmalloc(size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (!p) {
        fprintf(stderr, "out of memory (%zu bytes)\n", n);
        exit(3);
    }
    return p;
}

/* Runs fn(arg, idx) on `n` fresh threads and joins them; the main thread
 * only waits, so "-t N" means N workers everywhere. */
struct bench_team_slot {
    void (*fn)(void *arg, int idx);
    void *arg;
    int idx;
};

/* BENCH_PIN=0011 (for measurements, not used by the suite): worker i runs
 * only on the core named by digit i % length, so a run's thread placement
 * is chosen instead of drawn (lockfree's modes are placements: two threads
 * of a pair on one core or on two). */
static void bench_pin(int idx)
{
    const char *pin = getenv("BENCH_PIN");
    size_t len = pin ? strlen(pin) : 0;
    if (!len)
        return;
    char c = pin[(size_t)idx % len];
    if (c < '0' || c > '9') {
        fprintf(stderr, "BENCH_PIN: '%s' is not a string of core digits\n", pin);
        exit(2);
    }
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(c - '0', &set);
    if (sched_setaffinity(0, sizeof set, &set)) {
        fprintf(stderr, "BENCH_PIN: core %c: %s\n", c, strerror(errno));
        exit(2);
    }
}

static void *bench_team_trampoline(void *p)
{
    struct bench_team_slot *s = p;
    bench_pin(s->idx);
    s->fn(s->arg, s->idx);
    return NULL;
}

static inline void bench_team_run(int n, void (*fn)(void *arg, int idx), void *arg)
{
    pthread_t *tids = bench_xmalloc(sizeof *tids * (size_t)n);
    struct bench_team_slot *slots = bench_xmalloc(sizeof *slots * (size_t)n);
    for (int i = 0; i < n; i++) {
        slots[i] = (struct bench_team_slot){fn, arg, i};
        int rc = pthread_create(&tids[i], NULL, bench_team_trampoline, &slots[i]);
        if (rc) {
            fprintf(stderr, "pthread_create: %s\n", strerror(rc));
            exit(3);
        }
    }
    for (int i = 0; i < n; i++)
        pthread_join(tids[i], NULL);
    free(tids);
    free(slots);
}

/* Splits [0, n) into `parts` contiguous chunks; chunk `i` is [*lo, *hi). */
static inline void bench_chunk(long n, int parts, int i, long *lo, long *hi)
{
    long q = n / parts, r = n % parts;
    *lo = i * q + (i < r ? i : r);
    *hi = *lo + q + (i < r ? 1 : 0);
}

/* 64-bit mix (splitmix64 finaliser): cheap deterministic pseudo-randomness. */
static inline uint64_t bench_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Folds a double into a checksum by its bit pattern, so "same checksum"
 * means bit-identical results. */
static inline uint64_t bench_fold_double(uint64_t h, double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return bench_mix(h ^ u);
}

/* The one line the harness parses: "checksum=<hex> ok" or "... FAILED".
 * Exit status 1 on a failed self-check. */
static inline int bench_finish(const struct bench_args *a, const char *name, uint64_t sum, int ok,
                               double t0, const char *detail)
{
    double dt = bench_now() - t0;
    if (!a->quiet)
        printf("%s: threads=%d size=%ld time=%.6fs %s\n", name, a->threads, a->size, dt,
               detail ? detail : "");
    printf("%s: checksum=%016" PRIx64 " %s\n", name, sum, ok ? "ok" : "FAILED");
    fflush(stdout);
    return ok ? 0 : 1;
}

#endif
