// A racy free of a big block, under every engine that reports it and under
// sets of engines: a worker writes one byte in the middle of a 64 MiB block
// and main frees the block with nothing ordering the two (an invisible flag
// forces only the order in time). The free visits only the granules with
// state, in each engine's own plane, and must still check this one: one
// report (the engines' reports of one pair are one), the shadow of the
// untouched bytes never brought in. valor and fastrcd do not report it by
// design (the worker's region has ended: region conflicts need both regions
// ongoing). The free leaves errno as it was, the report printed inside it
// included (it was EINVAL after one).
// STRESS-ENGINES: goldilocks vc fasttrack eraser hybrid-short hybrid-long jrf goldilocks,vc fasttrack,eraser,hybrid-long,jrf
// STRESS-EXIT: 66
// STRESS-REPORTS: 1
// STRESS-CHECK: (free)
#include "stress.h"
#include "../races/invisible_barrier.h"
#include <errno.h>
#include <pthread.h>

#define LEN ((size_t)64 << 20)

static char *block;
static ib_flag written;

static void *worker(void *arg) {
    (void)arg;
    block[LEN / 2] = 1;
    ib_set(&written);
    return NULL;
}

int main(void) {
    stress_watchdog(30);
    block = malloc(LEN);
    STRESS_CHECK(block, "malloc");
    pthread_t t;
    STRESS_CHECK(pthread_create(&t, NULL, worker, NULL) == 0, "pthread_create");
    ib_wait(&written);
    errno = ENOTTY;
    free(block);
    STRESS_CHECK(errno == ENOTTY, "errno after the free that reported: %d", errno);
    pthread_join(t, NULL);
    stress_check_peak("big free race", 160);
    return 0;
}
