/* nbody: direct O(N^2) gravitational n-body, leapfrog-like steps. Bodies are
 * split into one slice per thread; each step has two barrier-separated
 * phases: compute accelerations from everyone's positions (read shared), then
 * update own velocities and positions (write own). -n = bodies (STEPS = 10). */
#include "bench.h"
#include <math.h>

#define STEPS 10
#define DT 1e-3
#define SOFT 1e-2

struct body {
    double x, y, z, vx, vy, vz, m;
};

static int N, nthreads;
static struct body *bodies;
static double *acc; /* 3 per body */
static pthread_barrier_t barrier;

static void worker(void *arg, int idx)
{
    (void)arg;
    long lo, hi;
    bench_chunk(N, nthreads, idx, &lo, &hi);
    for (int s = 0; s < STEPS; s++) {
        for (long i = lo; i < hi; i++) {
            double ax = 0, ay = 0, az = 0;
            const struct body *bi = &bodies[i];
            for (int j = 0; j < N; j++) {
                const struct body *bj = &bodies[j];
                double dx = bj->x - bi->x, dy = bj->y - bi->y, dz = bj->z - bi->z;
                double r2 = dx * dx + dy * dy + dz * dz + SOFT * SOFT;
                double inv = 1.0 / (r2 * sqrt(r2));
                ax += bj->m * dx * inv;
                ay += bj->m * dy * inv;
                az += bj->m * dz * inv;
            }
            acc[3 * i] = ax;
            acc[3 * i + 1] = ay;
            acc[3 * i + 2] = az;
        }
        pthread_barrier_wait(&barrier);
        for (long i = lo; i < hi; i++) {
            struct body *b = &bodies[i];
            b->vx += DT * acc[3 * i];
            b->vy += DT * acc[3 * i + 1];
            b->vz += DT * acc[3 * i + 2];
            b->x += DT * b->vx;
            b->y += DT * b->vy;
            b->z += DT * b->vz;
        }
        pthread_barrier_wait(&barrier);
    }
}

int main(int argc, char **argv)
{
    struct bench_args a = bench_parse(argc, argv, "nbody", "number of bodies (10 steps)", 4, 6000, 2);
    N = (int)a.size;
    nthreads = a.threads;
    bodies = bench_xmalloc(sizeof(struct body) * (size_t)N);
    acc = bench_xmalloc(sizeof(double) * 3 * (size_t)N);
    for (int i = 0; i < N; i++) {
        double u[6];
        for (int k = 0; k < 6; k++)
            u[k] = (double)(bench_mix((uint64_t)i * 8 + (uint64_t)k) >> 11) * 0x1.0p-53 - 0.5;
        bodies[i] = (struct body){u[0], u[1], u[2], 0.1 * u[3], 0.1 * u[4], 0.1 * u[5], 1.0 / N};
    }
    /* Start with zero total momentum so conservation is an absolute check. */
    double px = 0, py = 0, pz = 0;
    for (int i = 0; i < N; i++) {
        px += bodies[i].vx;
        py += bodies[i].vy;
        pz += bodies[i].vz;
    }
    for (int i = 0; i < N; i++) {
        bodies[i].vx -= px / N;
        bodies[i].vy -= py / N;
        bodies[i].vz -= pz / N;
    }
    pthread_barrier_init(&barrier, NULL, (unsigned)a.threads);
    double t0 = bench_now();
    bench_team_run(a.threads, worker, NULL);

    /* Pairwise forces are antisymmetric bit for bit, so total momentum stays
     * zero up to summation rounding; scale by total |momentum|. */
    double mx = 0, my = 0, mz = 0, mabs = 0;
    uint64_t h = 0;
    int ok = 1;
    for (int i = 0; i < N; i++) {
        const struct body *b = &bodies[i];
        mx += b->m * b->vx;
        my += b->m * b->vy;
        mz += b->m * b->vz;
        mabs += b->m * (fabs(b->vx) + fabs(b->vy) + fabs(b->vz));
        ok &= isfinite(b->x) && isfinite(b->vx);
        h = bench_fold_double(bench_fold_double(bench_fold_double(h, b->x), b->y), b->z);
    }
    double drift = (fabs(mx) + fabs(my) + fabs(mz)) / mabs;
    ok &= drift < 1e-9;
    char detail[64];
    snprintf(detail, sizeof detail, "momentum_drift=%.2e", drift);
    return bench_finish(&a, "nbody", h, ok, t0, detail);
}
