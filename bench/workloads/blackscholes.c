/* blackscholes: PARSEC-style embarrassingly parallel option pricer. Each
 * thread prices its slice of the option array (calls and puts, closed-form
 * Black-Scholes with the PARSEC polynomial CNDF) REPS times; threads share
 * only the read-only input. -n = number of options (REPS = 50). */
#include "bench.h"
#include <math.h>

#define REPS 50

struct option {
    double spot, strike, rate, vol, time;
};

static long nopt;
static int nthreads;
static struct option *opts;
static double *call, *put;

/* Abramowitz-Stegun 26.2.17 as in PARSEC's CNDF. */
static double cndf(double x)
{
    int neg = x < 0;
    if (neg) x = -x;
    double k = 1.0 / (1.0 + 0.2316419 * x);
    double poly = k * (0.319381530 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429))));
    double n = 1.0 - 0.3989422804014327 * exp(-0.5 * x * x) * poly;
    return neg ? 1.0 - n : n;
}

static void price(const struct option *o, double *c, double *p)
{
    double sq = o->vol * sqrt(o->time);
    double d1 = (log(o->spot / o->strike) + (o->rate + 0.5 * o->vol * o->vol) * o->time) / sq;
    double d2 = d1 - sq;
    double disc = o->strike * exp(-o->rate * o->time);
    *c = o->spot * cndf(d1) - disc * cndf(d2);
    *p = disc * cndf(-d2) - o->spot * cndf(-d1);
}

static void worker(void *arg, int idx)
{
    (void)arg;
    long lo, hi;
    bench_chunk(nopt, nthreads, idx, &lo, &hi);
    for (int r = 0; r < REPS; r++)
        for (long i = lo; i < hi; i++)
            price(&opts[i], &call[i], &put[i]);
}

static double unit(uint64_t i, int k) { return (double)(bench_mix(i * 8 + (uint64_t)k) >> 11) * 0x1.0p-53; }

int main(int argc, char **argv)
{
    struct bench_args a = bench_parse(argc, argv, "blackscholes", "number of options (50 repetitions)", 4, 400000, 1);
    nopt = a.size;
    nthreads = a.threads;
    opts = bench_xmalloc(sizeof(struct option) * (size_t)nopt);
    call = bench_xmalloc(sizeof(double) * (size_t)nopt);
    put = bench_xmalloc(sizeof(double) * (size_t)nopt);
    for (long i = 0; i < nopt; i++)
        opts[i] = (struct option){
            .spot = 50 + 100 * unit((uint64_t)i, 0),
            .strike = 50 + 100 * unit((uint64_t)i, 1),
            .rate = 0.01 + 0.09 * unit((uint64_t)i, 2),
            .vol = 0.05 + 0.6 * unit((uint64_t)i, 3),
            .time = 0.1 + 2.0 * unit((uint64_t)i, 4),
        };
    double t0 = bench_now();
    bench_team_run(a.threads, worker, NULL);

    /* Put-call parity C - P = S - K e^{-rT} holds exactly for the formula
     * (cndf(x) + cndf(-x) == 1 up to rounding): an independent check of
     * every price. */
    uint64_t h = 0;
    int ok = 1;
    double worst = 0;
    for (long i = 0; i < nopt; i++) {
        const struct option *o = &opts[i];
        double parity = call[i] - put[i] - (o->spot - o->strike * exp(-o->rate * o->time));
        double err = fabs(parity) / o->spot;
        if (err > worst) worst = err;
        ok &= call[i] >= -1e-9 && put[i] >= -1e-9;
        h = bench_fold_double(bench_fold_double(h, call[i]), put[i]);
    }
    ok &= worst < 1e-9;
    char detail[64];
    snprintf(detail, sizeof detail, "parity_err=%.2e", worst);
    return bench_finish(&a, "blackscholes", h, ok, t0, detail);
}
