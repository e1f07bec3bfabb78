/* Differential suite: an independent model of the text trace format of
 * ALGORITHMS.md §1.5 (the subset src/trace/text.c accepts), shared by the
 * generator, the oracle, the metamorphic transforms and the minimizer.
 * It deliberately does not reuse src/trace/text.c: the oracle must not
 * inherit the parser's mistakes. Test code: plain libc is fine here. */
#ifndef DIFF_DTRACE_H
#define DIFF_DTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum dop {
    D_FORK, D_EXIT, D_JOIN, D_DETACH, D_YIELD, D_ACQ, D_REL, D_TRYFAIL, D_WRLOCK, D_WRUNLOCK,
    D_RDLOCK, D_RDUNLOCK, D_WAIT_ENTER, D_WAIT_EXIT, D_SIGNAL, D_BROADCAST, D_BAR_ARRIVE,
    D_BAR_DEPART, D_SEM_POST, D_SEM_WAIT, D_ONCE_DONE, D_ONCE_RET, D_ST, D_LD, D_RMW, D_CASFAIL,
    D_FENCE, D_SIGFENCE, D_RD, D_WR, D_RDR, D_WRR, D_ALLOC, D_FREE, D_NOPS
};

/* Memory orders, numbered like enum goldi_mo (and the TSan ABI). */
enum { MO_RLX, MO_CON, MO_ACQ, MO_REL, MO_ACQ_REL, MO_SC };

#define D_SLOT 64        /* bytes per location name (GOLDI_TEXT_SLOT) */
#define D_NONE 0xffff

/* One trace event. Names are ids into the trace's name tables. */
struct dev {
    uint8_t op;          /* enum dop */
    uint8_t mo;          /* atomics, fences (casfail: failure order) */
    uint8_t off, len;    /* accesses/atomics/alloc/free: bytes [off, off+len) of loc */
    uint8_t form;        /* how the location was written: 0 NAME, 1 NAME[off:len], 2 NAME[off] COUNT */
    uint16_t tid;        /* acting thread (thread name id) */
    uint16_t other;      /* fork/join/detach: the other thread */
    uint16_t loc;        /* location name id */
    uint16_t sync, sync2;/* sync object name ids (wait: CV, M) */
    uint32_t gen;        /* barrier generation (always explicit after parsing) */
    uint32_t line;       /* 1-based source line (0 if generated) */
    uint16_t label;      /* label name id (parsed traces), D_NONE if none */
};

struct dnames {
    char **s;
    uint32_t n, cap;
};

struct dtrace {
    struct dev *ev;
    uint32_t n, cap;
    struct dnames thr, loc, sync, lab;
    /* Declared thread count of each barrier (`barrier B N`), by sync name id,
     * 0 = none: what pthread_barrier_init tells the runtime. The printer
     * declares them ahead of the events, so the engines see the count
     * (Goldilocks' dead marks need it) while the generations stay explicit. */
    uint32_t *bar_count, n_bar_count;
};

/* Name tables. */
uint32_t diff_name_id(struct dnames *t, const char *s, size_t n);   /* adds if absent */
int diff_name_find(const struct dnames *t, const char *s, size_t n);/* -1 if absent */

void diff_trace_init(struct dtrace *t);
void diff_trace_free(struct dtrace *t);
void diff_trace_copy(struct dtrace *dst, const struct dtrace *src);
struct dev *diff_trace_push(struct dtrace *t);
/* Declares barrier sync id `sync` with n threads (0: undeclared). */
void diff_trace_set_bar_count(struct dtrace *t, uint32_t sync, uint32_t n);

/* Parses text (the §1.5 format; one or more events per line, labels ignored,
 * `barrier B N` declarations resolved into explicit generations). Returns 0 or
 * -1 with a message in err. T0 is thread name id 0. */
int diff_trace_parse(const char *text, size_t len, struct dtrace *t, char *err, size_t errlen);

/* Writes the trace, one event per line. If labels is set, event i gets the
 * label E<i>. Returns a malloc'ed string. */
char *diff_trace_print(const struct dtrace *t, bool labels);

/* Replays the trace against the well-formedness rules of ALGORITHMS.md §3
 * (threads forked before acting and silent after exit, locks respected,
 * waits around a held mutex, barrier generations, semaphore counts, once).
 * Returns true if well-formed; otherwise why gets the first violation. */
bool diff_trace_valid(const struct dtrace *t, char *why, size_t n);

/* Event classification. */
bool diff_is_access(uint8_t op);      /* touches bytes: rd wr rdr wrr st ld rmw casfail free */
bool diff_is_write(uint8_t op);       /* wr wrr st rmw free */
bool diff_is_atomic(uint8_t op);      /* st ld rmw casfail */
bool diff_mo_acquire(uint8_t mo);
bool diff_mo_release(uint8_t mo);
extern const char *const diff_op_names[D_NOPS];
extern const char *const diff_mo_names[6];

#endif
