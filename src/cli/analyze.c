/* `goldi analyze [--engine=LIST|all] [--format=F] FILE`: replays a trace
 * (binary from goldi record, text .gtrace, RAPID STD) through engines, each
 * in its own child process with fresh state (so its time and peak memory are
 * its own), prints every engine's race reports and a comparison table.
 * Stacks of recorded programs are symbolized with libdw (dlopen'ed) on the
 * executable and libraries recorded in the trace, at their recorded load
 * addresses. CLI code: full libc. */
#define _GNU_SOURCE
#include "cli.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <elfutils/libdwfl.h>

#include "trace/analyze.h"
#include "trace/names.h"

/* --- offline symbolizer: libdw on the recorded modules ------------------------ */

static struct {
    __typeof__(dwfl_begin) *begin;
    __typeof__(dwfl_report_begin) *report_begin;
    __typeof__(dwfl_report_elf) *report_elf;
    __typeof__(dwfl_report_end) *report_end;
    __typeof__(dwfl_addrmodule) *addrmodule;
    __typeof__(dwfl_module_addrinfo) *addrinfo;
    __typeof__(dwfl_module_getsrc) *getsrc;
    __typeof__(dwfl_lineinfo) *lineinfo;
    __typeof__(dwfl_module_nextcu) *nextcu;
    __typeof__(dwarf_haspc) *haspc;
    __typeof__(dwarf_getsrc_die) *getsrc_die;
    __typeof__(dwarf_linesrc) *linesrc;
    __typeof__(dwarf_lineno) *lineno;
    Dwfl_Callbacks cb;
    Dwfl *dwfl;
} dw;

struct mod {
    const char *name;      /* basename shown in frames */
    uint64_t bias;
    const uint64_t *ranges;
    uint32_t n_ranges;
};
static struct mod *mods;
static size_t n_mods;
static bool use_libdw = true;

static bool dw_load(void) {
    void *h = dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h)
        return false;
#define SYM(field, name) (*(void **)&dw.field = dlsym(h, #name)) != NULL
    bool ok = SYM(begin, dwfl_begin) && SYM(report_begin, dwfl_report_begin) && SYM(report_elf, dwfl_report_elf) &&
              SYM(report_end, dwfl_report_end) && SYM(addrmodule, dwfl_addrmodule) &&
              SYM(addrinfo, dwfl_module_addrinfo) && SYM(getsrc, dwfl_module_getsrc) &&
              SYM(lineinfo, dwfl_lineinfo) && SYM(nextcu, dwfl_module_nextcu) && SYM(haspc, dwarf_haspc) &&
              SYM(getsrc_die, dwarf_getsrc_die) && SYM(linesrc, dwarf_linesrc) && SYM(lineno, dwarf_lineno);
#undef SYM
    if (!ok)
        return false;
    *(void **)&dw.cb.find_elf = dlsym(h, "dwfl_build_id_find_elf");
    *(void **)&dw.cb.find_debuginfo = dlsym(h, "dwfl_standard_find_debuginfo");
    *(void **)&dw.cb.section_address = dlsym(h, "dwfl_offline_section_address");
    return dw.cb.find_elf && dw.cb.find_debuginfo && dw.cb.section_address;
}

static const char *base_of(const char *p) {
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* The recorded modules become an offline libdw session at their recorded
 * load addresses. A module whose file is gone (or changed: libdw checks
 * nothing, so rebuild and the lines are wrong) still names module+offset. */
static void prepare(void *ctx, const struct goldi_trace_info *in) {
    (void)ctx;
    mods = calloc(in->n_modules + 1, sizeof *mods);
    for (uint32_t i = 0; i < in->n_modules; i++) {
        const struct goldi_trace_module *m = &in->modules[i];
        const char *path = m->path[0] ? m->path : in->exe;
        mods[n_mods++] = (struct mod){
            .name = path[0] ? base_of(path) : "<main>", .bias = m->bias, .ranges = m->ranges, .n_ranges = m->n_ranges};
    }
    if (!use_libdw || !dw_load())
        return;
    dw.dwfl = dw.begin(&dw.cb);
    if (!dw.dwfl)
        return;
    dw.report_begin(dw.dwfl);
    for (uint32_t i = 0; i < in->n_modules; i++) {
        const struct goldi_trace_module *m = &in->modules[i];
        const char *path = m->path[0] ? m->path : in->exe;
        if (!path[0] || access(path, R_OK) != 0 || strncmp(base_of(path), "linux-vdso", 10) == 0)
            continue;
        /* MODULES is written at start and again at exit: report each once */
        bool dup = false;
        for (uint32_t k = 0; k < i && !dup; k++)
            dup = in->modules[k].bias == m->bias && strcmp(in->modules[k].path, m->path) == 0;
        if (dup)
            continue;
        dw.report_elf(dw.dwfl, base_of(path), path, -1, m->bias, false);
    }
    dw.report_end(dw.dwfl, NULL, NULL);
}

static const struct mod *mod_of(uintptr_t a) {
    const struct mod *hit = NULL;
    for (size_t i = 0; i < n_mods; i++)
        for (uint32_t j = 0; j < mods[i].n_ranges; j++)
            if (a >= mods[i].ranges[2 * j] && a - mods[i].ranges[2 * j] < mods[i].ranges[2 * j + 1])
                hit = &mods[i];
    return hit;
}

static bool is_data(unsigned char info) {
    unsigned t = GELF_ST_TYPE(info);
    return t == STT_OBJECT || t == STT_TLS || t == STT_COMMON;
}

/* Clang 14 emits no .debug_aranges: walk the CUs (as report/symbolize.c). */
static const char *line_by_cu_scan(Dwfl_Module *m, uintptr_t a, int *line) {
    Dwarf_Addr bias = 0;
    for (Dwarf_Die *cu = dw.nextcu(m, NULL, &bias); cu; cu = dw.nextcu(m, cu, &bias)) {
        if (dw.haspc(cu, a - bias) <= 0)
            continue;
        Dwarf_Line *l = dw.getsrc_die(cu, a - bias);
        if (!l || dw.lineno(l, line) != 0)
            return NULL;
        return dw.linesrc(l, NULL, NULL);
    }
    return NULL;
}

static bool symbolize(uintptr_t pc, bool is_ret, struct goldi_frame *out) {
    uintptr_t a = is_ret && pc ? pc - 1 : pc;
    memset(out, 0, sizeof *out);
    out->pc = a;
    const struct mod *m = mod_of(a);
    if (!m)
        return false;
    out->module = m->name;
    out->module_offset = a - m->bias;
    if (!dw.dwfl)
        return false;
    Dwfl_Module *dm = dw.addrmodule(dw.dwfl, a);
    if (!dm)
        return false;
    GElf_Off off = 0;
    GElf_Sym sym;
    memset(&sym, 0, sizeof sym);
    const char *name = dw.addrinfo(dm, a, &off, &sym, NULL, NULL, NULL);
    if (name && !is_data(sym.st_info))
        out->function = strdup(name);
    int line = 0;
    const char *file = NULL;
    Dwfl_Line *l = dw.getsrc(dm, a);
    if (l)
        file = dw.lineinfo(l, NULL, &line, NULL, NULL, NULL);
    else
        file = line_by_cu_scan(dm, a, &line);
    if (file) {
        out->file = strdup(file);
        out->line = line;
    }
    return out->function || out->file;
}

static bool symbolize_data(uintptr_t addr, const char **name, uintptr_t *start, size_t *size, const char **module,
                           uintptr_t *module_offset) {
    const struct mod *m = mod_of(addr);
    if (!m || !dw.dwfl)
        return false;
    Dwfl_Module *dm = dw.addrmodule(dw.dwfl, addr);
    if (!dm)
        return false;
    GElf_Off off = 0;
    GElf_Sym sym;
    memset(&sym, 0, sizeof sym);
    const char *n = dw.addrinfo(dm, addr, &off, &sym, NULL, NULL, NULL);
    if (!n || !is_data(sym.st_info) || !(off < sym.st_size || (sym.st_size == 0 && off == 0)))
        return false;
    *name = strdup(n);
    *start = addr - off;
    *size = sym.st_size;
    if (module)
        *module = m->name;
    if (module_offset)
        *module_offset = addr - off - m->bias;
    return true;
}

/* --- per-engine child --------------------------------------------------------------- */

struct locs {                 /* distinct racy location pairs, for the table */
    char **s;
    size_t n, cap;
};
static struct locs locs;

static void frame_text(goldi_origin_t o, char *b, size_t n) {
    struct goldi_origin_info oi;
    struct goldi_frame f;
    if (!o || !goldi_origin_lookup(o, &oi) || !oi.n_frames) {
        snprintf(b, n, "?");
        return;
    }
    goldi_analyze_symbolize(oi.frames[0], true, &f);
    if (f.file)
        snprintf(b, n, "%s:%d", base_of(f.file), f.line);
    else if (f.function)
        snprintf(b, n, "%s", f.function);
    else if (f.module)
        snprintf(b, n, "%s+0x%lx", f.module, (unsigned long)f.module_offset);
    else
        snprintf(b, n, "0x%lx", (unsigned long)f.pc);
}

static void on_race(void *ctx, const struct goldi_race *r) {
    (void)ctx;
    char c[256], p[256], line[600];
    frame_text(r->cur, c, sizeof c);
    frame_text(r->prev, p, sizeof p);
    snprintf(line, sizeof line, "%s%s %s vs %s%s %s", r->cur_atomic ? "atomic " : "",
             r->cur_write ? "write" : "read", c, r->prev_atomic ? "atomic " : "", r->prev_write ? "write" : "read",
             p);
    for (size_t i = 0; i < locs.n; i++)
        if (strcmp(locs.s[i], line) == 0)
            return;
    if (locs.n == locs.cap) {
        locs.cap = locs.cap ? 2 * locs.cap : 16;
        locs.s = realloc(locs.s, locs.cap * sizeof *locs.s);
    }
    locs.s[locs.n++] = strdup(line);
}

struct opts {
    const struct goldi_engine_ops *engines[GOLDI_MAX_ENGINES * 2];
    unsigned n_engines;
    enum goldi_trace_format format;
    bool partial, quiet, table, skip_checks;
    long report_limit;
    const char *path;
};

/* Runs one engine; writes its result and race locations to fd. */
static int child_run(const struct opts *o, const struct goldi_engine_ops *e, const char *data, size_t len, int fd) {
    struct goldi_analyze_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.engines[0] = e;
    cfg.n_engines = 1;
    cfg.report.fd = o->quiet ? open("/dev/null", O_WRONLY) : 1;
    cfg.report.report_limit = o->report_limit;
    cfg.report.symbolize = true;
    cfg.symbolize = symbolize;
    cfg.symbolize_data = symbolize_data;
    cfg.prepare = prepare;
    cfg.on_race = on_race;
    cfg.allow_partial = o->partial;
    cfg.skip_checks = o->skip_checks;
    struct goldi_analyze_result *res = calloc(1, sizeof *res);
    char err[512];
    int rc = goldi_analyze_run(o->path, data, len, o->format, &cfg, res, err, sizeof err);
    fflush(stdout);
    if (rc) {
        fprintf(stderr, "goldi analyze: %s: %s\n", o->path, err);
        return 1;
    }
    /* the result struct, then the location lines */
    FILE *f = fdopen(fd, "w");
    fwrite(res, sizeof *res, 1, f);
    for (size_t i = 0; i < locs.n; i++)
        fprintf(f, "%s\n", locs.s[i]);
    fclose(f);
    return 0;
}

struct outcome {
    const struct goldi_engine_ops *e;
    struct goldi_analyze_result res;
    bool ok;
    double peak_rss_mib;
    char *locs;               /* newline-separated */
};

static char *read_all_fd(int fd, size_t *len) {
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap + 1);
    for (;;) {
        if (n == cap)
            b = realloc(b, (cap *= 2) + 1);
        ssize_t r = read(fd, b + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    b[n] = 0;
    *len = n;
    return b;
}

static int run_engine(const struct opts *o, const struct goldi_engine_ops *e, const char *data, size_t len,
                      struct outcome *out) {
    int pfd[2];
    if (pipe(pfd) != 0) {
        perror("goldi analyze: pipe");
        return -1;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        perror("goldi analyze: fork");
        return -1;
    }
    if (pid == 0) {
        close(pfd[0]);
        _exit(child_run(o, e, data, len, pfd[1]));
    }
    close(pfd[1]);
    size_t n;
    char *buf = read_all_fd(pfd[0], &n);
    close(pfd[0]);
    int status;
    struct rusage ru;
    while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
        ;
    out->e = e;
    out->ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && n >= sizeof out->res;
    if (out->ok) {
        memcpy(&out->res, buf, sizeof out->res);
        out->locs = strdup(buf + sizeof out->res);
    } else if (WIFSIGNALED(status)) {
        fprintf(stderr, "goldi analyze: engine %s crashed (signal %d)\n", e->name, WTERMSIG(status));
    }
    out->peak_rss_mib = ru.ru_maxrss / 1024.0;
    free(buf);
    return out->ok ? 0 : -1;
}

/* --- table ------------------------------------------------------------------------------ */

static void print_table(const struct opts *o, struct outcome *oc, unsigned n) {
    printf("\n== goldi analyze: %s (%s trace) ==\n", o->path, goldi_trace_format_name(o->format));
    printf("%-13s %6s %11s %11s %11s %10s %9s %10s\n", "engine", "races", "events", "accesses", "checks", "time ms",
           "peak MiB", "alloc MiB");
    for (unsigned i = 0; i < n; i++) {
        const struct goldi_analyze_result *r = &oc[i].res;
        if (!oc[i].ok) {
            printf("%-13s failed\n", oc[i].e->name);
            continue;
        }
        printf("%-13s %6llu %11llu %11llu %11llu %10.2f %9.1f %10.2f\n", oc[i].e->name, (unsigned long long)r->races,
               (unsigned long long)r->events, (unsigned long long)r->accesses, (unsigned long long)r->checks,
               r->time_ns / 1e6, oc[i].peak_rss_mib, r->alloc_peak / 1048576.0);
    }
    printf("(races: distinct pairs of racy locations; checks: 8-byte granule pieces the engine checked,\n"
           " a free of whole granules counting one: the engines visit only its granules with state;\n"
           " peak MiB: the engine's process peak RSS, trace input included; alloc MiB: runtime allocator peak)\n");
    bool any = false;
    for (unsigned i = 0; i < n; i++)
        any |= oc[i].ok && oc[i].res.n_stats;
    if (any) {
        printf("\nengine counters:\n");
        for (unsigned i = 0; i < n; i++) {
            if (!oc[i].ok || !oc[i].res.n_stats)
                continue;
            printf("  %s:", oc[i].e->name);
            for (unsigned k = 0; k < oc[i].res.n_stats; k++)
                printf("%s %s=%llu", k ? "," : "", oc[i].res.stats[k].name,
                       (unsigned long long)oc[i].res.stats[k].value);
            printf("\n");
        }
    }
    any = false;
    for (unsigned i = 0; i < n; i++)
        any |= oc[i].ok && oc[i].locs && oc[i].locs[0];
    if (any) {
        printf("\nraces found (current access vs earlier access):\n");
        for (unsigned i = 0; i < n; i++) {
            if (!oc[i].ok || !oc[i].locs || !oc[i].locs[0])
                continue;
            for (char *l = oc[i].locs, *nl; *l; l = nl + 1) {
                nl = strchr(l, '\n');
                if (!nl)
                    break;
                printf("  %-13s %.*s\n", oc[i].e->name, (int)(nl - l), l);
            }
        }
    }
}

/* --- entry --------------------------------------------------------------------------------- */

static int usage(void) {
    fprintf(stderr,
            "usage: goldi analyze [--engine=LIST|all] [--format=auto|binary|text|std] [--partial]\n"
            "                     [-q|--quiet] [--no-table] [--report-limit=N] [--symbolize=0] FILE\n"
            "       goldi analyze --info FILE     (header of a binary trace)\n");
    return GOLDI_CLI_USAGE;
}

static bool add_engines(struct opts *o, const char *list) {
    if (strcmp(list, "all") == 0) {
        for (const struct goldi_engine_ops *const *e = goldi_engines; *e; e++)
            o->engines[o->n_engines++] = *e;
        return true;
    }
    for (const char *p = list; *p;) {
        const char *c = strchr(p, ',');
        size_t n = c ? (size_t)(c - p) : strlen(p);
        const struct goldi_engine_ops *e = goldi_engine_find(p, n);
        if (!e) {
            fprintf(stderr, "goldi analyze: unknown engine '%.*s' (known:", (int)n, p);
            for (const struct goldi_engine_ops *const *k = goldi_engines; *k; k++)
                fprintf(stderr, " %s", (*k)->name);
            fprintf(stderr, ", or all)\n");
            return false;
        }
        if (o->n_engines >= GOLDI_ARRAY_SIZE(o->engines))
            return false;
        o->engines[o->n_engines++] = e;
        p = c ? c + 1 : p + n;
    }
    return true;
}

/* Reads a whole file; NULL with errno set on failure. */
char *goldi_cli_read_file(const char *path, size_t *len);
char *goldi_cli_read_file(const char *path, size_t *len) {
    int fd = strcmp(path, "-") == 0 ? 0 : open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    char *b = read_all_fd(fd, len);
    if (fd)
        close(fd);
    return b;
}

int goldi_cli_analyze(int argc, char **argv) {
    struct opts o = {.format = GOLDI_TRACE_FMT_AUTO, .table = true};
    bool info = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--engine=", 9) == 0) {
            if (!add_engines(&o, a + 9))
                return GOLDI_CLI_USAGE;
        } else if (strncmp(a, "--format=", 9) == 0) {
            if (!goldi_trace_format_parse(a + 9, &o.format)) {
                fprintf(stderr, "goldi analyze: unknown format '%s' (auto, binary, text, std)\n", a + 9);
                return GOLDI_CLI_USAGE;
            }
        } else if (strcmp(a, "--partial") == 0) {
            o.partial = true;
        } else if (strcmp(a, "--ignore-checks") == 0) {
            o.skip_checks = true;   /* replay fuzzer outputs through the engines */
        } else if (strcmp(a, "--info") == 0) {
            info = true;
        } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            o.quiet = true;
        } else if (strcmp(a, "--no-table") == 0) {
            o.table = false;
        } else if (strncmp(a, "--report-limit=", 15) == 0) {
            o.report_limit = strtol(a + 15, NULL, 10);
        } else if (strcmp(a, "--symbolize=0") == 0) {
            use_libdw = false;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "goldi analyze: unknown option '%s'\n", a);
            return usage();
        } else if (!o.path) {
            o.path = a;
        } else {
            return usage();
        }
    }
    if (!o.path)
        return usage();
    if (!o.n_engines)
        add_engines(&o, "all");
    size_t len;
    char *data = goldi_cli_read_file(o.path, &len);
    if (!data) {
        fprintf(stderr, "goldi analyze: cannot read %s: %s\n", o.path, strerror(errno));
        return 1;
    }
    if (o.format == GOLDI_TRACE_FMT_AUTO)
        o.format = goldi_trace_detect(data, len);
    /* A binary trace is checked completely once, before any engine runs. */
    if (o.format == GOLDI_TRACE_FMT_BINARY) {
        struct goldi_trace *t;
        struct goldi_trace_read_opts ro = {.allow_partial = o.partial, .skip_checks = o.skip_checks};
        char err[512];
        int rc = goldi_trace_open(data, len, &ro, &t, err, sizeof err);
        if (!rc)
            rc = goldi_trace_replay(t, false, NULL, err, sizeof err);
        if (rc) {
            fprintf(stderr, "goldi analyze: %s: %s\n", o.path, err);
            return 1;
        }
        if (info) {
            const struct goldi_trace_info *in = goldi_trace_get_info(t);
            printf("format: binary, version %u, %llu bytes (%llu decompressed)\n"
                   "pid: %d\nexecutable: %s\nwritten by: %s\n"
                   "threads: %llu\nevents: %llu\nchunks: %llu\ndropped events: %llu\ncomplete: %s\n"
                   "modules:\n",
                   in->version, (unsigned long long)in->file_size, (unsigned long long)in->raw_size, in->pid,
                   in->exe[0] ? in->exe : "(none)", in->tool, (unsigned long long)in->n_threads,
                   (unsigned long long)in->n_events, (unsigned long long)in->n_chunks,
                   (unsigned long long)in->n_dropped, in->complete ? "yes" : "no (partial)");
            for (uint32_t i = 0; i < in->n_modules; i++)
                printf("  %#llx %s\n", (unsigned long long)in->modules[i].bias,
                       in->modules[i].path[0] ? in->modules[i].path : in->exe);
            return 0;
        }
        goldi_trace_close(t);
        goldi_trace_name_clear();
    } else if (info) {
        printf("format: %s (no header: see goldi analyze)\n", goldi_trace_format_name(o.format));
        return 0;
    }
    struct outcome *oc = calloc(o.n_engines, sizeof *oc);
    int status = 0;
    bool races = false;
    for (unsigned i = 0; i < o.n_engines; i++) {
        if (!o.quiet)
            printf("--- engine %s ---\n", o.engines[i]->name);
        if (run_engine(&o, o.engines[i], data, len, &oc[i]) != 0) {
            status = 1;
            if (i == 0)
                return 1;   /* the input itself is bad: the child said why */
        }
        races |= oc[i].ok && oc[i].res.races;
    }
    if (o.table)
        print_table(&o, oc, o.n_engines);
    fflush(stdout);
    return status ? status : races ? 66 : 0;
}
