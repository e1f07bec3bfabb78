/* Runtime start-up and shut-down: options, report stream, engines, T0,
 * exit status. goldi_rt_init may run from a module constructor before libc
 * is fully initialised: no malloc, no stdio until the very end (fflush). */
#include "thread_internal.h"
#include "../base/alloc.h"
#include "../base/atfork.h"
#include "../base/fmt.h"
#include "../engine/engine.h"
#include "../event/sync.h"
#include "../platform/platform.h"
#include "../report/report.h"
#include "../trace/writer.h"   /* trace_out= (goldi record) attaches the trace writer */

#include <stdio.h>    /* fflush(NULL) at exit only */
#include <stdlib.h>   /* atexit */

#include <goldi/goldi.h>

/* The program may define it (goldi.h); weak so the runtime links without. */
GOLDI_EXPORT GOLDI_WEAK const char *goldi_default_options(void);

enum { INIT_NONE, INIT_RUNNING, INIT_DONE };
static _Atomic int init_state;
static GOLDI_TLS bool init_on_this_thread;

static int report_fd = 2;
static unsigned n_engines;
static const struct goldi_engine_ops *engine_ops[GOLDI_MAX_ENGINES];
static struct goldi_sink *engine_sinks[GOLDI_MAX_ENGINES];
static _Atomic bool finished;

bool goldi_rt_initialized(void) {
    return atomic_load_explicit(&init_state, memory_order_acquire) == INIT_DONE;
}

GOLDI_NORETURN static void options_error(const char *err, const char *source) {
    goldi_fdprintf(2, "goldi: error: %s in %s (see GOLDI_OPTIONS=help=1)\n", err, source);
    goldi_os_exit(1);
}

static void read_options(void) {
    char err[256];
    goldi_options_defaults(&goldi_opts);
    if (goldi_default_options && !goldi_options_apply(goldi_default_options(), &goldi_opts, err, sizeof err))
        options_error(err, "goldi_default_options()");
    if (!goldi_options_apply(goldi_os_getenv("GOLDI_OPTIONS"), &goldi_opts, err, sizeof err))
        options_error(err, "GOLDI_OPTIONS");
    if (goldi_opts.help) {
        goldi_options_print_help(2);
        goldi_os_exit(0);
    }
}

static void open_log(void) {
    const char *p = goldi_opts.log_path;
    if (!p[0] || goldi_strcmp(p, "stderr") == 0) {
        report_fd = 2;
        return;
    }
    if (goldi_strcmp(p, "stdout") == 0) {
        report_fd = 1;
        return;
    }
    static char path[4096];   /* (static: runs once, at start-up; keeps the frame small) */
    goldi_snprintf(path, sizeof path, "%s.%d", p, goldi_os_getpid());
    int fd = goldi_os_open_log(path);
    if (fd < 0) {
        goldi_fdprintf(2, "goldi: error: cannot open log_path '%s' (errno %d)\n", path, -fd);
        goldi_os_exit(1);
    }
    report_fd = fd;
}

static void print_stat(void *ctx, const char *name, uint64_t value) {
    goldi_fdprintf(report_fd, "goldi: stats: %s %s %llu\n", (const char *)ctx, name,
                   (unsigned long long)value);
}

static void print_stats(void) {
    goldi_fdprintf(report_fd, "goldi: stats: runtime threads %u\n", goldi_rt_threads_created());
    goldi_fdprintf(report_fd, "goldi: stats: runtime sync_objects %zu\n", goldi_sync_count());
    goldi_fdprintf(report_fd, "goldi: stats: runtime alloc_bytes %zu\n", goldi_alloc_bytes_in_use());
    uint32_t sites, locksets, wholes;
    goldi_origin_counts(&sites, &locksets, &wholes);
    goldi_fdprintf(report_fd, "goldi: stats: runtime origin_sites %u\n", sites);
    goldi_fdprintf(report_fd, "goldi: stats: runtime origin_locksets %u\n", locksets);
    goldi_fdprintf(report_fd, "goldi: stats: runtime origin_wholes %u\n", wholes);
    goldi_fdprintf(report_fd, "goldi: stats: runtime filter_windows %llu\n",
                   (unsigned long long)goldi_rt_filter_windows(false, false));
    goldi_fdprintf(report_fd, "goldi: stats: runtime filter_skips %llu\n",
                   (unsigned long long)goldi_rt_filter_windows(false, true));
    goldi_fdprintf(report_fd, "goldi: stats: runtime gfilter_windows %llu\n",
                   (unsigned long long)goldi_rt_filter_windows(true, false));
    goldi_fdprintf(report_fd, "goldi: stats: runtime gfilter_skips %llu\n",
                   (unsigned long long)goldi_rt_filter_windows(true, true));
    goldi_fdprintf(report_fd, "goldi: stats: runtime mutex_spins_taken %llu\n",
                   (unsigned long long)goldi_rt_mutex_spins(false));
    goldi_fdprintf(report_fd, "goldi: stats: runtime mutex_spins_slept %llu\n",
                   (unsigned long long)goldi_rt_mutex_spins(true));
    for (unsigned i = 0; i < n_engines; i++)
        if (engine_ops[i]->stats)
            engine_ops[i]->stats(engine_sinks[i]->self, print_stat, (void *)engine_ops[i]->name);
}

/* Once per process: stats, the race count line, the finish line. */
static void finish_once(void) {
    if (atomic_exchange(&finished, true))
        return;
    if (goldi_opts.print_stats)
        print_stats();
    if (goldi_opts.trace_out[0] && goldi_trace_writer_finish() < 0)
        goldi_fdprintf(2, "goldi: warning: trace_out '%s': writing the trace failed (disk full?)\n",
                       goldi_opts.trace_out);
    goldi_report_finish();
    if (goldi_opts.verbosity >= 1)
        goldi_fdprintf(report_fd, "goldi: finished, %llu race(s) reported, pid %d\n",
                       (unsigned long long)goldi_report_count(), goldi_os_getpid());
}

/* status == NULL (atexit handler): if races were reported, flush stdio and
 * leave with exitcode right here; otherwise return so the program's own
 * status stands. status != NULL (exit/_exit interceptors): only rewrite
 * *status, the caller performs the exit. */
void goldi_rt_finish(int *status) {
    if (!goldi_rt_initialized())
        return;
    /* The main thread ends here: engines that check at thread end (Valor's
     * read validation) must see it. Other threads calling exit() keep their
     * state: the process ends with them mid-flight. */
    if (goldi_cur && goldi_cur->thr.tid == 0)
        goldi_rt_thread_exit();
    struct goldi_rt_thread *t = goldi_rt_enter();
    finish_once();
    if (goldi_report_count() > 0) {
        if (status) {
            *status = (int)goldi_opts.exitcode;
        } else {
            fflush(NULL);
            goldi_os_exit((int)goldi_opts.exitcode);
        }
    }
    goldi_rt_leave(t);
}

static void atexit_handler(void) { goldi_rt_finish(NULL); }

GOLDI_NORETURN static void halt(int exitcode) {
    goldi_rt_enter();
    finish_once();
    fflush(NULL);
    goldi_os_exit(exitcode);
}

static void start_engines(void) {
    const char *p = goldi_opts.engine;   /* validated by the option parser */
    for (;;) {
        const char *e = p;
        while (*e && *e != ',')
            e++;
        const struct goldi_engine_ops *ops = goldi_engine_find(p, (size_t)(e - p));
        GOLDI_CHECK(ops != NULL);
        engine_ops[n_engines] = ops;
        engine_sinks[n_engines] = goldi_engine_start(ops, goldi_report_race, NULL);
        n_engines++;
        if (!*e)
            break;
        p = e + 1;
    }
}

/* What the trace writer records about a thread beyond struct goldi_thr. Called
 * on thr's own thread at its first event. */
static void trace_thread_info(struct goldi_thr *thr, struct goldi_trace_thread_info *out) {
    struct goldi_rt_thread *t =
        (struct goldi_rt_thread *)((char *)thr - __builtin_offsetof(struct goldi_rt_thread, thr));
    out->os_tid = t->os_tid ? t->os_tid : goldi_os_gettid();
    out->stack_lo = t->stack_lo;
    out->stack_hi = t->stack_hi;
    out->tls_lo = t->tls_lo;
    out->tls_hi = t->tls_hi;
}

/* trace_out=FILE: attach the trace writer after the engines. `goldi record`
 * also sets GOLDI_TRACE_PID to the recorded program's pid, so instrumented
 * programs it starts (same environment) do not overwrite the trace. */
static void start_trace(void) {
    const char *path = goldi_opts.trace_out;
    if (!path[0])
        return;
    const char *owner = goldi_os_getenv("GOLDI_TRACE_PID");
    if (owner && owner[0]) {
        long pid = 0;
        for (const char *c = owner; *c >= '0' && *c <= '9'; c++)
            pid = pid * 10 + (*c - '0');
        if (pid != goldi_os_getpid()) {
            if (goldi_opts.verbosity >= 1)
                goldi_fdprintf(report_fd, "goldi: not recording pid %d: trace_out belongs to pid %ld\n",
                               goldi_os_getpid(), pid);
            return;
        }
    }
    int fd = goldi_os_create(path);
    if (fd < 0) {
        goldi_fdprintf(2, "goldi: error: cannot create trace_out '%s' (errno %d)\n", path, -fd);
        goldi_os_exit(1);
    }
    static char tool[160];
    goldi_snprintf(tool, sizeof tool, "goldi runtime (online engine=%s)", goldi_opts.engine);
    struct goldi_trace_writer_config cfg = {
        .fd = fd, .record_process = true, .tool = tool, .thread_info = trace_thread_info,
    };
    if (!goldi_trace_writer_start(&cfg)) {
        goldi_fdprintf(2, "goldi: error: cannot write trace_out '%s'\n", path);
        goldi_os_exit(1);
    }
}

static void do_init(void) {
    /* T0 first, so the rest runs "inside the runtime": libc calls made below
     * (dl_iterate_phdr, atexit, user's goldi_default_options) pass through
     * the interceptors untracked. */
    goldi_rt_threads_init();
    struct goldi_rt_thread *t0 = goldi_rt_thread_main_create();
    goldi_rt_enter();
    read_options();
    /* T0 was made before the options were read (goldi_opts.filter still 0):
     * without this its filter stayed off for the whole run. */
    goldi_rt_filters_start(t0, goldi_opts.filter);
    open_log();
    struct goldi_report_config cfg = {
        .fd = report_fd,
        .report_limit = goldi_opts.report_limit,
        .halt_on_error = goldi_opts.halt_on_error,
        .exitcode = (int)goldi_opts.exitcode,
        .symbolize = goldi_opts.symbolize,
        .verbosity = (int)goldi_opts.verbosity,
        .hooks = {
            .describe_location = goldi_rt_describe_location,
            .thread_info = goldi_rt_thread_info,
            .halt = halt,
        },
    };
    goldi_report_init(&cfg);
    start_engines();
    start_trace();
    /* registered first, so it runs after every handler the program adds */
    atexit(atexit_handler);
    if (goldi_opts.verbosity >= 1)
        goldi_fdprintf(report_fd, "goldi: engine(s) %s, pid %d\n", goldi_opts.engine,
                       goldi_os_getpid());
    goldi_rt_leave(t0);
}

/* Idempotent and thread-safe. The first caller initialises; a nested call on
 * that thread (an interceptor hit during init) returns at once; callers on
 * other threads wait until init is complete. */
void goldi_rt_init(void) {
    if (GOLDI_LIKELY(atomic_load_explicit(&init_state, memory_order_acquire) == INIT_DONE))
        return;
    if (init_on_this_thread)
        return;
    int expected = INIT_NONE;
    if (!atomic_compare_exchange_strong(&init_state, &expected, INIT_RUNNING)) {
        while (atomic_load_explicit(&init_state, memory_order_acquire) != INIT_DONE)
            goldi_os_yield();
        return;
    }
    init_on_this_thread = true;
    do_init();
    init_on_this_thread = false;
    atomic_store_explicit(&init_state, INIT_DONE, memory_order_release);
}
