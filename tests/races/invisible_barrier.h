/* invisible_barrier.h — thread ordering that no race detector can see.
 *
 * The race corpus needs to force a schedule ("the reader runs after the writer",
 * "keep both threads alive at once") WITHOUT creating happens-before, otherwise a
 * test would only prove what the forcing primitive itself synchronises.  Everything
 * here is therefore hidden from -fsanitize=thread:
 *   - the functions carry no_sanitize_thread and noinline, so the compiler neither
 *     instruments their bodies nor inlines them into instrumented callers;
 *   - the shared words are touched only by inline asm (lock xadd, mov, pause) —
 *     __atomic builtins would still be routed to __tsan_atomic* even here;
 *   - the occasional yield is a raw syscall, because libc's sched_yield would be
 *     intercepted.
 * The "memory" clobbers keep the compiler from moving the test's own accesses
 * across these calls, so the forced order is also the real order of the accesses.
 * x86-64 only (as is the runtime).
 *
 * Usage: file-scope `ib_flag f;` (zero-initialised), ib_set(&f) / ib_wait(&f);
 * `ib_barrier b;` with ib_barrier_wait(&b, n) for n threads (reusable).
 */
#ifndef RACES_INVISIBLE_BARRIER_H
#define RACES_INVISIBLE_BARRIER_H

#if !defined(__x86_64__)
#error "invisible_barrier.h uses x86-64 inline asm"
#endif

#define IB_FN static __attribute__((no_sanitize_thread, noinline, unused))

/* Keeps a loaded value alive so -O1 cannot drop the load that produced it,
 * without itself touching memory. */
#define KEEP(v) __asm__ __volatile__("" : : "r"(v))

typedef struct { volatile int v; } ib_flag;
typedef struct { volatile int arrived; } ib_barrier;

IB_FN int ib_xadd(volatile int *p, int v)
{
  __asm__ __volatile__("lock xaddl %0, %1" : "+r"(v), "+m"(*p) : : "memory");
  return v;
}

IB_FN int ib_read(volatile int *p)
{
  int v;
  __asm__ __volatile__("movl %1, %0" : "=r"(v) : "m"(*p) : "memory");
  return v;
}

/* Spin politely; every 64th round give the CPU away (tests run many threads on
 * few cores, and a spinner must not starve the thread it waits for). */
IB_FN void ib_relax(unsigned round)
{
  if ((round & 63) != 63) {
    __asm__ __volatile__("pause" : : : "memory");
    return;
  }
  long ret;
  __asm__ __volatile__("syscall" : "=a"(ret) : "0"(24L /* SYS_sched_yield */)
                       : "rcx", "r11", "memory");
  (void)ret;
}

/* Give the CPU away, invisibly: for the test's own spin loops on atomics, so a
 * slow (instrumented) partner gets to run and the spinner emits fewer events. */
IB_FN void ib_yield(void) { ib_relax(63); }

/* Flag: a counter; ib_set bumps it, ib_wait waits for >= 1, ib_wait_ge for >= n. */
IB_FN void ib_set(ib_flag *f) { ib_xadd(&f->v, 1); }

IB_FN void ib_wait_ge(ib_flag *f, int n)
{
  unsigned round = 0;
  while (ib_read(&f->v) < n)
    ib_relax(round++);
}

IB_FN void ib_wait(ib_flag *f) { ib_wait_ge(f, 1); }

/* Reusable barrier for n threads: the k-th arrival (0-based) belongs to
 * generation k / n and leaves once all n arrivals of that generation are in. */
IB_FN void ib_barrier_wait(ib_barrier *b, int n)
{
  int ticket = ib_xadd(&b->arrived, 1);
  int target = (ticket / n + 1) * n;
  unsigned round = 0;
  while (ib_read(&b->arrived) < target)
    ib_relax(round++);
}

/* A few hundred microseconds of invisible busy work: makes a likely schedule
 * likelier (never relied on for a verdict). */
IB_FN void ib_spin(unsigned n)
{
  for (unsigned i = 0; i < n; i++)
    __asm__ __volatile__("pause" : : : "memory");
}

#endif
