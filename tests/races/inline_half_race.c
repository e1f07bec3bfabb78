// VERDICT: race
// Half records (goldilocks: one kind's two 4-byte halves with histories of their own), in
// the frame of half_scenario.h: T accesses one half, publishes, accesses the other half; U
// then accesses the half T touched *after* publishing: unordered, a race in every schedule. A
// record that kept the earlier history for both halves would miss it; each scenario's race
// must be reported.
// CHECK: #0 u_low_after_high
// CHECK: #0 u_high_after_low
// CHECK: #0 u_read_low_written_later
// CHECK: #0 u_high_rejoined
// CHECK: #0 u_read_low_after_drop
// CHECK: #0 u_read_high_after_drop
#include "half_scenario.h"

static struct scenario sc[6];
#define U_FN __attribute__((noinline))

/* T: read high, publish, read low. U: write low. */
static void *t0(void *a) { struct scenario *s = a; KEEP(s->x.half[1]); publish(s); KEEP(s->x.half[0]); finished(s); return NULL; }
U_FN static void *u_low_after_high(void *a) { struct scenario *s = a; await(s); s->x.half[0] = 9; return NULL; }
/* T: read low, publish, read high. U: write high. */
static void *t1(void *a) { struct scenario *s = a; KEEP(s->x.half[0]); publish(s); KEEP(s->x.half[1]); finished(s); return NULL; }
U_FN static void *u_high_after_low(void *a) { struct scenario *s = a; await(s); s->x.half[1] = 9; return NULL; }
/* T: write all, publish, write low. U: read low. */
static void *t2(void *a) { struct scenario *s = a; s->x.whole = 7; publish(s); s->x.half[0] = 6; finished(s); return NULL; }
U_FN static void *u_read_low_written_later(void *a) { struct scenario *s = a; await(s); seen += s->x.half[0]; return NULL; }
/* T: read high, publish, read low, read high again (one history again, the
 * later one). U: write high. */
static void *t3(void *a) {
  struct scenario *s = a;
  KEEP(s->x.half[1]);
  publish(s);
  KEEP(s->x.half[0]);
  KEEP(s->x.half[1]);
  finished(s);
  return NULL;
}
U_FN static void *u_high_rejoined(void *a) { struct scenario *s = a; await(s); s->x.half[1] = 9; return NULL; }
/* T: write all, read high, publish, read low, write low. U: read low (T's write). */
static void *t4(void *a) { t_read_then_write(a, 0); return NULL; }
U_FN static void *u_read_low_after_drop(void *a) { struct scenario *s = a; await(s); seen += s->x.half[0]; return NULL; }
/* T: write all, read low, publish, read high, write high. U: read high (T's write). */
static void *t5(void *a) { t_read_then_write(a, 1); return NULL; }
U_FN static void *u_read_high_after_drop(void *a) { struct scenario *s = a; await(s); seen += s->x.half[1]; return NULL; }

int main(void) {
  static void *(*const t[])(void *) = { t0, t1, t2, t3, t4, t5 };
  static void *(*const u[])(void *) = { u_low_after_high, u_high_after_low, u_read_low_written_later,
                                        u_high_rejoined, u_read_low_after_drop, u_read_high_after_drop };
  run_scenarios(sc, t, u, 6);
  return 0;
}
