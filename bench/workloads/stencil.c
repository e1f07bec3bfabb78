/* stencil: barrier-phased 2D Jacobi relaxation (5-point average) on an
 * N x N grid with fixed boundary values. Rows are split into one band per
 * thread; each step reads the old grid and writes the new one, and a
 * pthread_barrier separates the steps, so neighbouring bands' border rows are
 * shared read-after-write across threads only through the barrier.
 * -n = grid side N (STEPS = 100 sweeps). */
#include "bench.h"

#define STEPS 100

static int N, nthreads;
static double *grid[2];
static pthread_barrier_t barrier;

#define AT(g, i, j) ((g)[(size_t)(i) * (size_t)N + (size_t)(j)])

static void worker(void *arg, int idx)
{
    (void)arg;
    long lo, hi;
    bench_chunk(N - 2, nthreads, idx, &lo, &hi);
    lo += 1;
    hi += 1;
    for (int s = 0; s < STEPS; s++) {
        const double *src = grid[s & 1];
        double *dst = grid[(s + 1) & 1];
        for (long i = lo; i < hi; i++)
            for (int j = 1; j < N - 1; j++)
                AT(dst, i, j) = 0.25 * (AT(src, i - 1, j) + AT(src, i + 1, j) + AT(src, i, j - 1) + AT(src, i, j + 1));
        pthread_barrier_wait(&barrier);
    }
}

int main(int argc, char **argv)
{
    struct bench_args a = bench_parse(argc, argv, "stencil", "grid side (100 sweeps)", 4, 2400, 2);
    if (a.size < 3) {
        fprintf(stderr, "stencil: -n must be >= 3\n");
        return 2;
    }
    N = (int)a.size;
    nthreads = a.threads;
    for (int b = 0; b < 2; b++) {
        grid[b] = bench_xmalloc(sizeof(double) * (size_t)N * (size_t)N);
        /* Boundary: hot top edge (100), cold bottom (0), sides in between;
         * interior starts at 50. Both buffers carry the same boundary. */
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                double v = 50.0;
                if (i == 0) v = 100.0;
                else if (i == N - 1) v = 0.0;
                else if (j == 0 || j == N - 1) v = 100.0 * (double)(N - 1 - i) / (double)(N - 1);
                AT(grid[b], i, j) = v;
            }
    }
    pthread_barrier_init(&barrier, NULL, (unsigned)a.threads);
    double t0 = bench_now();
    bench_team_run(a.threads, worker, NULL);

    /* Each cell is computed by the same expression whatever the banding, so
     * the result is bit-identical for every -t (the harness cross-checks the
     * checksum against the native run). Here: the discrete maximum principle
     * (every interior value stays within the boundary range) and finiteness. */
    const double *g = grid[STEPS & 1];
    uint64_t h = 0;
    int ok = 1;
    double sum = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double v = AT(g, i, j);
            ok &= v >= 0.0 && v <= 100.0;
            sum += v;
            h = bench_fold_double(h, v);
        }
    char detail[64];
    snprintf(detail, sizeof detail, "mean=%.6f", sum / ((double)N * N));
    return bench_finish(&a, "stencil", h, ok, t0, detail);
}
