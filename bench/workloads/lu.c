/* lu: SPLASH-2 style LU factorisation (no pivoting) of a dense, diagonally
 * dominant N x N matrix, in place. Rows are dealt cyclically to the threads;
 * after each pivot step k every thread updates its rows below k, and a
 * barrier orders step k's writes of row k+1 before anyone reads it as the
 * next pivot row. -n = N. */
#include "bench.h"
#include <math.h>

static int N, nthreads;
static double *A;
static pthread_barrier_t barrier;

#define AT(i, j) A[(size_t)(i) * (size_t)N + (size_t)(j)]

/* The input is a formula, so the residual check needs no copy of it. */
static double a0(int i, int j)
{
    double off = (double)(bench_mix((uint64_t)i * 131071u + (uint64_t)j) >> 11) * 0x1.0p-53 - 0.5;
    return i == j ? (double)N + 1.0 + off : off;
}

static void worker(void *arg, int idx)
{
    (void)arg;
    for (int k = 0; k < N - 1; k++) {
        const double *pivot = &AT(k, 0);
        double inv = 1.0 / pivot[k];
        /* First row > k owned by this thread: rows i with i % nthreads == idx. */
        int i = k + 1 + (((idx - (k + 1)) % nthreads) + nthreads) % nthreads;
        for (; i < N; i += nthreads) {
            double *row = &AT(i, 0);
            double l = row[k] * inv;
            row[k] = l;
            for (int j = k + 1; j < N; j++)
                row[j] -= l * pivot[j];
        }
        pthread_barrier_wait(&barrier);
    }
}

int main(int argc, char **argv)
{
    struct bench_args a = bench_parse(argc, argv, "lu", "matrix order N", 4, 1800, 3);
    N = (int)a.size;
    nthreads = a.threads;
    A = bench_xmalloc(sizeof(double) * (size_t)N * (size_t)N);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            AT(i, j) = a0(i, j);
    pthread_barrier_init(&barrier, NULL, (unsigned)a.threads);
    double t0 = bench_now();
    bench_team_run(a.threads, worker, NULL);

    /* Residual on sampled entries: A0(i,j) = sum_{k<=min(i,j)} L(i,k) U(k,j),
     * with L unit lower (below the diagonal) and U upper (on and above). */
    int ok = 1;
    double worst = 0;
    for (int s = 0; s < 200; s++) {
        int i = (int)(bench_mix(2u * (uint64_t)s) % (uint64_t)N), j = (int)(bench_mix(2u * (uint64_t)s + 1) % (uint64_t)N);
        int m = i < j ? i : j;
        double acc = 0;
        for (int k = 0; k <= m; k++) {
            double l = k == i ? 1.0 : AT(i, k);
            acc += l * AT(k, j);
        }
        double err = fabs(acc - a0(i, j)) / (double)N;
        if (err > worst) worst = err;
    }
    ok = worst < 1e-10;
    uint64_t h = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            h = bench_fold_double(h, AT(i, j));
    char detail[64];
    snprintf(detail, sizeof detail, "residual=%.2e", worst);
    return bench_finish(&a, "lu", h, ok, t0, detail);
}
