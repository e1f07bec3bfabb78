// VERDICT: norace
// Half records (goldilocks: one kind's two 4-byte halves with histories of their own), in
// the frame of half_scenario.h: T accesses one half, publishes, accesses the other half; U
// then touches only the half T accessed *before* publishing. Every U access is ordered after
// the T access on its bytes: a record that gave both halves T's later history would report a
// race here.
#include "half_scenario.h"

static struct scenario sc[5];

/* T: read high, publish, read low. U: write high. */
static void *t0(void *a) { struct scenario *s = a; KEEP(s->x.half[1]); publish(s); KEEP(s->x.half[0]); finished(s); return NULL; }
static void *u0(void *a) { struct scenario *s = a; await(s); s->x.half[1] = 9; return NULL; }
/* T: read low, publish, read high. U: write low. */
static void *t1(void *a) { struct scenario *s = a; KEEP(s->x.half[0]); publish(s); KEEP(s->x.half[1]); finished(s); return NULL; }
static void *u1(void *a) { struct scenario *s = a; await(s); s->x.half[0] = 9; return NULL; }
/* T: write all, publish, write low. U: read high. */
static void *t2(void *a) { struct scenario *s = a; s->x.whole = 7; publish(s); s->x.half[0] = 6; finished(s); return NULL; }
static void *u2(void *a) { struct scenario *s = a; await(s); seen += s->x.half[1]; return NULL; }
/* T: write all, read high, publish, read low, write low (the write drops
 * T's low R: the record keeps the high half's earlier R only). U: write high. */
static void *t3(void *a) { t_read_then_write(a, 0); return NULL; }
static void *u3(void *a) { struct scenario *s = a; await(s); s->x.half[1] = 9; return NULL; }
/* T: write all, read low, publish, read high, write high. U: write low. */
static void *t4(void *a) { t_read_then_write(a, 1); return NULL; }
static void *u4(void *a) { struct scenario *s = a; await(s); s->x.half[0] = 9; return NULL; }

int main(void) {
  static void *(*const t[])(void *) = { t0, t1, t2, t3, t4 }, *(*const u[])(void *) = { u0, u1, u2, u3, u4 };
  run_scenarios(sc, t, u, 5);
  return 0;
}
