/* `goldi cc` / `goldi c++`: a compiler driver wrapper. Sources are compiled
 * with -fsanitize=thread; executables are linked with OUR runtime
 * (libgoldi_rt.a, whole-archive) and never with libtsan.
 *
 * Why the modes differ:
 *  - compile only (-c, -S, -E, -M, -MM, -fsyntax-only): only the flag is
 *    added; the compiler family does not matter.
 *  - link (no sources): the runtime is appended. GCC links libtsan whenever
 *    -fsanitize=thread is on a link line, so that flag is removed for GCC;
 *    clang gets -fno-sanitize-link-runtime instead.
 *  - compile+link in one command: clang takes -fsanitize=thread
 *    -fno-sanitize-link-runtime in one go. GCC has no such switch, so each
 *    source is compiled separately into a temporary object (same flags, -c)
 *    and the objects are then linked without -fsanitize, in the position the
 *    source had (argument order decides symbol resolution for -l).
 *  - -shared / -r outputs never embed the runtime: the executable that loads
 *    them carries it (two copies would mean two shadow states).
 * Everything the wrapper cannot classify is passed through unchanged.
 * Errors: helpers return 0 or -errno; the entry point returns an exit status. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Set in the environment of every compiler we run: a GOLDI_CC that points
 * back at goldi would otherwise recurse for ever. */
#define ACTIVE_ENV "GOLDI_CLI_ACTIVE"
#define RT_NAME "libgoldi_rt.a"

/* ---- string vectors (the process is short-lived: nothing is freed) ---- */

struct strvec {
    char **v;      /* NULL-terminated once sv_argv() ran */
    size_t n, cap; /* used / allocated slots */
};

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n);
    if (!p) {
        fprintf(stderr, "goldi: out of memory\n");
        exit(1);
    }
    return p;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xrealloc(NULL, n), s, n);
}

__attribute__((format(printf, 1, 2))) static char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    int n;
    char *s;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    s = xrealloc(NULL, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

static void sv_push(struct strvec *s, const char *x)
{
    if (s->n + 2 > s->cap) {
        s->cap = s->cap ? 2 * s->cap : 32;
        s->v = xrealloc(s->v, s->cap * sizeof(*s->v));
    }
    s->v[s->n++] = (char *)x;
    s->v[s->n] = NULL;
}

static void sv_extend(struct strvec *s, const struct strvec *t)
{
    for (size_t i = 0; i < t->n; i++)
        sv_push(s, t->v[i]);
}

/* ---- response files (@file), expanded like GCC's libiberty does ---- */

static int read_whole(const char *path, char **out)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0, cap = 0, got;
    int ret = 0;

    if (!f)
        return -errno;
    do {
        if (n + 4096 + 1 > cap) {
            cap = cap ? 2 * cap : 8192;
            buf = xrealloc(buf, cap);
        }
        got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
    } while (got > 0);
    if (ferror(f)) {
        ret = -EIO;
        free(buf);
        goto out;
    }
    buf[n] = '\0';
    *out = buf;
out:
    fclose(f);
    return ret;
}

/* Whitespace separates words; '...' and "..." quote; backslash escapes. */
static void split_response(const char *text, struct strvec *out)
{
    const char *p = text;
    size_t cap = strlen(text) + 1;

    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v')
            p++;
        if (!*p)
            break;
        char *word = xrealloc(NULL, cap), *w = word;
        char quote = 0;
        for (; *p; p++) {
            if (*p == '\\' && p[1]) {
                *w++ = *++p;
            } else if (quote) {
                if (*p == quote)
                    quote = 0;
                else
                    *w++ = *p;
            } else if (*p == '\'' || *p == '"') {
                quote = *p;
            } else if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' ||
                       *p == '\v') {
                break;
            } else {
                *w++ = *p;
            }
        }
        *w = '\0';
        sv_push(out, word);
    }
}

static void expand_args(int argc, char **argv, struct strvec *out, int depth)
{
    for (int i = 0; i < argc; i++) {
        char *text = NULL;
        if (argv[i][0] == '@' && depth < 16 && read_whole(argv[i] + 1, &text) == 0) {
            struct strvec inner = {0};
            split_response(text, &inner);
            expand_args((int)inner.n, inner.v, out, depth + 1);
        } else {
            /* An unreadable @file stays a literal argument, as in GCC. */
            sv_push(out, argv[i]);
        }
    }
}

/* ---- argument classification ---- */

enum arg_kind {
    ARG_OPT,    /* an option, one or two tokens */
    ARG_SOURCE, /* a file the compiler translates */
    ARG_INPUT,  /* object, archive, shared object, -l: linker input */
    ARG_OUTPUT, /* -o FILE */
};

enum arg_flags {
    F_LINK = 1u << 0,   /* link-only: left out of GCC's per-source compile steps */
    F_LANG = 1u << 1,   /* -x: re-emitted per source, left out of the link step */
    F_DEPS = 1u << 2,   /* -MD, -MF...: compile-only, left out of the link step */
    F_DUMP = 1u << 3,   /* -dumpdir/-dumpbase: compile-only */
    F_SAN = 1u << 4,    /* -fsanitize=LIST */
    F_TSANLIB = 1u << 5 /* -static-libtsan: would pull libtsan in */
};

struct arg {
    enum arg_kind kind;
    unsigned flags;     /* enum arg_flags */
    const char *tok[2]; /* the option and, for two-token options, its value */
    int ntok;           /* 1 or 2 */
    const char *lang;   /* sources: the -x language in effect, or NULL */
};

struct cmd {
    struct arg *args;   /* in command-line order */
    size_t nargs;
    size_t n_sources;   /* ARG_SOURCE entries */
    size_t n_inputs;    /* ARG_INPUT entries */
    const char *output; /* -o value, or NULL */
    bool stop_early;    /* -c, -S, -E, -M, -MM, -fsyntax-only */
    bool info;          /* --version, -print-*, -dump*: no compilation at all */
    bool no_runtime;    /* -shared or -r: the runtime belongs to the executable */
    bool has_tsan;      /* the user already passed -fsanitize=...thread... */
    bool has_lang;      /* some -x option was given */
    bool has_md;        /* -MD or -MMD */
    bool has_mf, has_mt;/* -MF given; -MT or -MQ given */
    bool has_aux;       /* an option writing auxiliary files named after the output */
    bool has_dumpdir;   /* the user sets -dumpdir/-dumpbase themselves */
};

/* Options whose value is the next token. */
static const struct {
    const char *name;
    unsigned flags;
} sep_opts[] = {
    {"-I", 0}, {"-D", 0}, {"-U", 0}, {"-include", 0}, {"-imacros", 0}, {"-idirafter", 0},
    {"-iprefix", 0}, {"-iwithprefix", 0}, {"-iwithprefixbefore", 0}, {"-isystem", 0},
    {"-isysroot", 0}, {"-iquote", 0}, {"-imultilib", 0}, {"-MF", F_DEPS}, {"-MT", F_DEPS},
    {"-MQ", F_DEPS}, {"-Xlinker", F_LINK}, {"-Xassembler", 0}, {"-Xpreprocessor", 0},
    {"-Xclang", 0}, {"-mllvm", 0}, {"-T", F_LINK}, {"-u", F_LINK}, {"-z", F_LINK},
    {"-e", F_LINK}, {"-L", F_LINK}, {"-aux-info", 0}, {"--param", 0}, {"-A", 0},
    {"-target", 0}, {"--sysroot", 0}, {"-B", 0}, {"-arch", 0}, {"-dumpdir", F_DUMP},
    {"-dumpbase", F_DUMP}, {"-dumpbase-ext", F_DUMP}, {"-gcc-toolchain", 0}, {"-wrapper", 0},
    {"-MJ", F_DEPS}, {"--serialize-diagnostics", 0},
};

/* One-token options that only matter to the linker. */
static const char *const link_only[] = {
    "-shared", "-r", "-static", "-static-pie", "-pie", "-no-pie", "-rdynamic", "-nostdlib",
    "-nostartfiles", "-nodefaultlibs", "-s", "-static-libgcc", "-shared-libgcc",
    "-static-libstdc++", "-symbolic",
};

static const char *const info_opts[] = {
    "--version", "-dumpversion", "-dumpfullversion", "-dumpmachine", "-dumpspecs",
    "--target-help",
};

static const char *const source_exts[] = {
    "c", "i", "ii", "cc", "cp", "cxx", "cpp", "CPP", "c++", "C", "m", "mi", "mm", "M", "mii",
    "s", "S", "sx",
};

static bool in_list(const char *s, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(s, list[i]) == 0)
            return true;
    return false;
}
#define IN_LIST(s, list) in_list((s), (list), sizeof(list) / sizeof((list)[0]))

static bool starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static const char *file_ext(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash + 1 : path, '.');
    return dot && dot != (slash ? slash + 1 : path) ? dot : NULL;
}

static bool is_source_name(const char *path)
{
    const char *ext = file_ext(path);
    return ext && IN_LIST(ext + 1, source_exts);
}

/* Does a -fsanitize= list name thread? */
static bool san_list_has_thread(const char *list)
{
    const char *p = list;
    while (*p) {
        size_t n = strcspn(p, ",");
        if (n == 6 && strncmp(p, "thread", 6) == 0)
            return true;
        p += n;
        if (*p == ',')
            p++;
    }
    return false;
}

static bool is_aux_opt(const char *s)
{
    return strcmp(s, "--coverage") == 0 || strcmp(s, "-ftest-coverage") == 0 ||
           strcmp(s, "-fprofile-arcs") == 0 || strcmp(s, "-gsplit-dwarf") == 0 ||
           strcmp(s, "-fstack-usage") == 0 || starts(s, "-fcallgraph-info") ||
           starts(s, "-save-temps") || starts(s, "-fdump-");
}

static void classify_opt(struct cmd *c, struct arg *a, const char *s)
{
    if (strcmp(s, "-c") == 0 || strcmp(s, "-S") == 0 || strcmp(s, "-E") == 0 ||
        strcmp(s, "-fsyntax-only") == 0) {
        c->stop_early = true;
    } else if (strcmp(s, "-M") == 0 || strcmp(s, "-MM") == 0) {
        c->stop_early = true; /* implies -E */
        a->flags |= F_DEPS;
    } else if (strcmp(s, "-MD") == 0 || strcmp(s, "-MMD") == 0) {
        c->has_md = true;
        a->flags |= F_DEPS;
    } else if (strcmp(s, "-MP") == 0 || strcmp(s, "-MG") == 0) {
        a->flags |= F_DEPS;
    } else if (starts(s, "-MF")) {
        c->has_mf = true;
        a->flags |= F_DEPS;
    } else if (starts(s, "-MT") || starts(s, "-MQ")) {
        c->has_mt = true;
        a->flags |= F_DEPS;
    } else if (starts(s, "-MJ")) {
        a->flags |= F_DEPS;
    } else if (IN_LIST(s, info_opts) || starts(s, "-print-") || starts(s, "--print-") ||
               starts(s, "--help")) {
        c->info = true;
    } else if (strcmp(s, "-shared") == 0 || strcmp(s, "-r") == 0) {
        c->no_runtime = true;
        a->flags |= F_LINK;
    } else if (IN_LIST(s, link_only) || starts(s, "-Wl,") || starts(s, "-L") ||
               starts(s, "-fuse-ld=")) {
        a->flags |= F_LINK;
    } else if (strcmp(s, "-static-libtsan") == 0) {
        a->flags |= F_LINK | F_TSANLIB;
    } else if (starts(s, "-fsanitize=")) {
        a->flags |= F_SAN;
        if (san_list_has_thread(s + strlen("-fsanitize=")))
            c->has_tsan = true;
    } else if (starts(s, "-dumpdir") || starts(s, "-dumpbase")) {
        c->has_dumpdir = true;
        a->flags |= F_DUMP;
    } else if (is_aux_opt(s)) {
        c->has_aux = true;
    }
}

static void parse(const struct strvec *toks, struct cmd *c)
{
    const char *lang = NULL;

    memset(c, 0, sizeof(*c));
    c->args = xrealloc(NULL, (toks->n + 1) * sizeof(*c->args));
    for (size_t i = 0; i < toks->n; i++) {
        const char *s = toks->v[i];
        struct arg *a = &c->args[c->nargs++];
        memset(a, 0, sizeof(*a));
        a->kind = ARG_OPT;
        a->tok[0] = s;
        a->ntok = 1;

        if (s[0] != '-' || s[1] == '\0') { /* a file, or "-" for stdin */
            bool src = (lang && strcmp(lang, "none") != 0) ||
                       (!lang && (strcmp(s, "-") == 0 || is_source_name(s)));
            a->kind = src ? ARG_SOURCE : ARG_INPUT;
            a->lang = src && lang && strcmp(lang, "none") != 0 ? lang : NULL;
            if (src)
                c->n_sources++;
            else
                c->n_inputs++;
            continue;
        }
        if (strcmp(s, "-o") == 0 || (starts(s, "-o") && s[2])) {
            a->kind = ARG_OUTPUT;
            if (s[2]) {
                c->output = s + 2;
            } else if (i + 1 < toks->n) {
                a->tok[1] = toks->v[++i];
                a->ntok = 2;
                c->output = a->tok[1];
            }
            continue;
        }
        if (strcmp(s, "-x") == 0 || (starts(s, "-x") && s[2])) {
            a->flags |= F_LANG;
            c->has_lang = true;
            if (s[2]) {
                lang = s + 2;
            } else if (i + 1 < toks->n) {
                a->tok[1] = toks->v[++i];
                a->ntok = 2;
                lang = a->tok[1];
            }
            continue;
        }
        if (strcmp(s, "-l") == 0 || starts(s, "-l")) {
            a->kind = ARG_INPUT;
            c->n_inputs++;
            if (!s[2] && i + 1 < toks->n) {
                a->tok[1] = toks->v[++i];
                a->ntok = 2;
            }
            continue;
        }
        classify_opt(c, a, s);
        for (size_t k = 0; k < sizeof(sep_opts) / sizeof(sep_opts[0]); k++) {
            if (strcmp(s, sep_opts[k].name) == 0) {
                a->flags |= sep_opts[k].flags;
                if (i + 1 < toks->n) {
                    a->tok[1] = toks->v[++i];
                    a->ntok = 2;
                }
                break;
            }
        }
    }
}

/* ---- environment: compiler, family, runtime ---- */

enum family { FAM_GCC, FAM_CLANG };

static bool verbose(void)
{
    const char *v = getenv("GOLDI_CC_VERBOSE");
    return v && *v && strcmp(v, "0") != 0;
}

static void print_cmd(const struct strvec *cmd)
{
    if (!verbose())
        return;
    fputs("goldi:", stderr);
    for (size_t i = 0; i < cmd->n; i++) {
        const char *s = cmd->v[i];
        bool plain = *s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                     "0123456789-_=+,./:@%^") == strlen(s);
        fprintf(stderr, plain ? " %s" : " '%s'", s);
    }
    fputc('\n', stderr);
}

/* GOLDI_CC may hold several words ("ccache gcc"). */
static void compiler_words(bool cxx, struct strvec *out)
{
    const char *env = getenv(cxx ? "GOLDI_CXX" : "GOLDI_CC");
    if (!env || !*env) {
        sv_push(out, cxx ? "c++" : "cc");
        return;
    }
    split_response(env, out);
    if (out->n == 0)
        sv_push(out, cxx ? "c++" : "cc");
}

static int wait_status(int st)
{
    if (WIFEXITED(st))
        return WEXITSTATUS(st);
    if (WIFSIGNALED(st))
        return 128 + WTERMSIG(st);
    return 1;
}

/* Runs cmd and returns its exit status (127 when it cannot be started). */
static int run(const struct strvec *cmd)
{
    pid_t pid;
    int st;

    print_cmd(cmd);
    fflush(NULL);
    pid = fork();
    if (pid < 0) {
        fprintf(stderr, "goldi: fork: %s\n", strerror(errno));
        return 1;
    }
    if (pid == 0) {
        execvp(cmd->v[0], cmd->v);
        fprintf(stderr, "goldi: cannot run '%s': %s\n", cmd->v[0], strerror(errno));
        _exit(127);
    }
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return 1;
    return wait_status(st);
}

/* Replaces this process with cmd: the exit status is the compiler's. */
static int exec_cmd(const struct strvec *cmd)
{
    print_cmd(cmd);
    fflush(NULL);
    execvp(cmd->v[0], cmd->v);
    fprintf(stderr, "goldi: cannot run '%s': %s\n", cmd->v[0], strerror(errno));
    return 127;
}

static enum family detect_family(const struct strvec *cc)
{
    const char *forced = getenv("GOLDI_CC_FAMILY");
    char buf[1024]; /* the first line names the compiler */
    size_t n = 0;
    int fds[2], st;
    pid_t pid;

    if (forced && strcmp(forced, "clang") == 0)
        return FAM_CLANG;
    if (forced && strcmp(forced, "gcc") == 0)
        return FAM_GCC;
    if (pipe(fds) < 0)
        return FAM_GCC;
    pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        return FAM_GCC;
    }
    if (pid == 0) {
        struct strvec v = {0};
        int devnull = open("/dev/null", O_WRONLY);
        sv_extend(&v, cc);
        sv_push(&v, "--version");
        dup2(fds[1], 1);
        if (devnull >= 0)
            dup2(devnull, 2);
        close(fds[0]);
        close(fds[1]);
        execvp(v.v[0], v.v);
        _exit(127);
    }
    close(fds[1]);
    for (;;) {
        ssize_t got = read(fds[0], buf + n, sizeof(buf) - 1 - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        n += (size_t)got;
        if (n == sizeof(buf) - 1)
            break;
    }
    close(fds[0]);
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    buf[n] = '\0';
    /* "clang version", "Debian clang version", "Apple clang"; GCC (and a
     * cc symlink to it) never prints the word. Unknown drivers get the GCC
     * treatment, which works for both (it only costs the split). */
    return strstr(buf, "clang") ? FAM_CLANG : FAM_GCC;
}

/* <dir of goldi>/../lib/libgoldi_rt.a, or $GOLDI_RUNTIME_DIR/libgoldi_rt.a. */
static int runtime_path(char **out)
{
    const char *env = getenv("GOLDI_RUNTIME_DIR");
    char *path;

    if (env && *env) {
        path = xasprintf("%s/%s", env, RT_NAME);
    } else {
        char *exe = realpath("/proc/self/exe", NULL);   /* (no PATH_MAX buffer on the stack) */
        if (!exe)
            return -errno;
        char *slash = strrchr(exe, '/');
        if (slash)
            *slash = '\0';
        path = xasprintf("%s/../lib/%s", exe, RT_NAME);
        free(exe);
        char *real = realpath(path, NULL);
        if (real)
            path = real;
    }
    *out = path;
    if (access(path, R_OK) != 0)
        return -errno;
    return 0;
}

static void push_runtime(struct strvec *cmd, const char *rt)
{
    sv_push(cmd, "-Wl,--whole-archive");
    sv_push(cmd, rt);
    sv_push(cmd, "-Wl,--no-whole-archive");
    /* Instrumented shared objects (also dlopen'ed ones) resolve the ABI and
     * the public API against the executable: keep them in .dynsym. Hidden
     * runtime internals are unaffected. */
    sv_push(cmd, "-Wl,--export-dynamic-symbol=__tsan_*");
    sv_push(cmd, "-Wl,--export-dynamic-symbol=goldi_*");
    sv_push(cmd, "-lpthread");
    sv_push(cmd, "-ldl");
    sv_push(cmd, "-lm");
}

/* -fsanitize=a,thread,b on a GCC link line becomes -fsanitize=a,b; NULL
 * when nothing is left. */
static const char *san_without_thread(const char *opt)
{
    const char *p = opt + strlen("-fsanitize=");
    char *res = xstrdup("-fsanitize="), *r;
    size_t len = strlen(res), cap = strlen(opt) + 1;
    bool any = false;

    res = xrealloc(res, cap);
    r = res + len;
    while (*p) {
        size_t n = strcspn(p, ",");
        if (n && !(n == 6 && strncmp(p, "thread", 6) == 0)) {
            if (any)
                *r++ = ',';
            memcpy(r, p, n);
            r += n;
            any = true;
        }
        p += n;
        if (*p == ',')
            p++;
    }
    *r = '\0';
    return any ? res : NULL;
}

/* ---- temporary objects of the GCC split ---- */

static struct strvec tmp_files;  /* removed on exit and on fatal signals */
static char *tmp_dir;

static void cleanup_tmp(void)
{
    for (size_t i = 0; i < tmp_files.n; i++)
        unlink(tmp_files.v[i]);
    if (tmp_dir)
        rmdir(tmp_dir);
}

static void on_fatal_signal(int sig)
{
    cleanup_tmp(); /* unlink/rmdir are async-signal-safe */
    signal(sig, SIG_DFL);
    raise(sig);
}

static int make_tmp_dir(void)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base)
        base = "/tmp";
    tmp_dir = xasprintf("%s/goldi-cc.XXXXXX", base);
    if (!mkdtemp(tmp_dir)) {
        int err = -errno;
        tmp_dir = NULL;
        return err;
    }
    signal(SIGINT, on_fatal_signal);
    signal(SIGTERM, on_fatal_signal);
    signal(SIGHUP, on_fatal_signal);
    return 0;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* path without its extension (only the last component's). */
static char *strip_ext(const char *path)
{
    char *s = xstrdup(path);
    const char *ext = file_ext(s);
    if (ext)
        s[ext - s] = '\0';
    return s;
}

/* Options that make GCC name auxiliary files (coverage notes, .dwo, -MD
 * dependency files, -save-temps) after the final output in one-step mode.
 * The per-source compile must reproduce those names, or they would land in
 * the temporary directory and vanish with it. Rules observed with GCC 12:
 * -o out => "out-minus-extension-" prefix; several sources without -o =>
 * "a-"; one source without -o => no prefix. */
static void push_aux_names(const struct cmd *c, const struct arg *src, struct strvec *cmd)
{
    const char *name = src->tok[0];
    const char *stem = strip_ext(base_name(name));
    const char *ext = file_ext(base_name(name));

    if (strcmp(name, "-") == 0)
        return;
    if (c->has_aux && !c->has_dumpdir) {
        const char *dir = c->output ? xasprintf("%s-", strip_ext(c->output))
                          : c->n_sources > 1 ? "a-"
                                             : "./";
        sv_push(cmd, "-dumpdir");
        sv_push(cmd, dir);
        sv_push(cmd, "-dumpbase");
        sv_push(cmd, base_name(name));
        if (ext) {
            sv_push(cmd, "-dumpbase-ext");
            sv_push(cmd, ext);
        }
    }
    if (c->has_md && !c->has_mf) {
        const char *dep;
        if (c->output)
            dep = c->n_sources > 1 ? xasprintf("%s-%s.d", strip_ext(c->output), stem)
                                   : xasprintf("%s.d", strip_ext(c->output));
        else
            dep = xasprintf("%s%s.d", c->n_sources > 1 ? "a-" : "", stem);
        sv_push(cmd, "-MF");
        sv_push(cmd, dep);
        if (!c->has_mt) {
            sv_push(cmd, "-MT");
            sv_push(cmd, c->output ? c->output : xasprintf("%s.o", stem));
        }
    }
}

/* GCC, sources present, linking: compile each source to a temporary object,
 * then link them in place of the sources. */
static int gcc_split(const struct strvec *cc, const struct cmd *c, const char *rt)
{
    const char **objs = xrealloc(NULL, c->nargs * sizeof(*objs));
    struct strvec link = {0};
    int ret, status = 0;
    size_t idx = 0;

    ret = make_tmp_dir();
    if (ret < 0) {
        fprintf(stderr, "goldi: cannot create a temporary directory: %s\n", strerror(-ret));
        return 1;
    }
    for (size_t i = 0; i < c->nargs; i++) {
        const struct arg *src = &c->args[i];
        struct strvec comp = {0};
        char num[32];

        objs[i] = NULL;
        if (src->kind != ARG_SOURCE)
            continue;
        snprintf(num, sizeof(num), "%zu", idx++);
        objs[i] = xasprintf("%s/%s-%s.o", tmp_dir, num,
                            strcmp(src->tok[0], "-") == 0 ? "stdin"
                                                          : strip_ext(base_name(src->tok[0])));
        sv_push(&tmp_files, objs[i]);

        sv_extend(&comp, cc);
        if (!c->has_tsan)
            sv_push(&comp, "-fsanitize=thread");
        for (size_t j = 0; j < c->nargs; j++) {
            const struct arg *a = &c->args[j];
            if (a->kind != ARG_OPT || (a->flags & (F_LINK | F_LANG)))
                continue;
            for (int k = 0; k < a->ntok; k++)
                sv_push(&comp, a->tok[k]);
        }
        push_aux_names(c, src, &comp);
        sv_push(&comp, "-c");
        if (src->lang) {
            sv_push(&comp, "-x");
            sv_push(&comp, src->lang);
        }
        sv_push(&comp, src->tok[0]);
        sv_push(&comp, "-o");
        sv_push(&comp, objs[i]);
        status = run(&comp);
        if (status != 0)
            goto out;
    }

    sv_extend(&link, cc);
    for (size_t i = 0; i < c->nargs; i++) {
        const struct arg *a = &c->args[i];
        if (a->kind == ARG_SOURCE) {
            sv_push(&link, objs[i]);
            continue;
        }
        if (a->kind == ARG_OPT) {
            if (a->flags & (F_LANG | F_DEPS | F_DUMP | F_TSANLIB))
                continue;
            if (a->flags & F_SAN) {
                const char *rest = san_without_thread(a->tok[0]);
                if (rest)
                    sv_push(&link, rest);
                continue;
            }
        }
        for (int k = 0; k < a->ntok; k++)
            sv_push(&link, a->tok[k]);
    }
    if (rt)
        push_runtime(&link, rt);
    status = run(&link);
out:
    cleanup_tmp();
    return status;
}

int goldi_cli_cc(int argc, char **argv, bool cxx)
{
    struct strvec cc = {0}, toks = {0}, cmd = {0};
    struct cmd c;
    char *rt = NULL;
    enum family fam;
    int ret;

    if (getenv(ACTIVE_ENV)) {
        fprintf(stderr, "goldi: GOLDI_%s runs goldi again; point it at a real compiler\n",
                cxx ? "CXX" : "CC");
        return 1;
    }
    setenv(ACTIVE_ENV, "1", 1);
    compiler_words(cxx, &cc);
    expand_args(argc, argv, &toks, 0);
    parse(&toks, &c);

    sv_extend(&cmd, &cc);
    if (c.info || (c.n_sources == 0 && c.n_inputs == 0)) {
        /* --version, -print-*, bare -v, "no input files": untouched. */
        for (int i = 0; i < argc; i++)
            sv_push(&cmd, argv[i]);
        return exec_cmd(&cmd);
    }
    if (c.stop_early) {
        if (!c.has_tsan)
            sv_push(&cmd, "-fsanitize=thread");
        for (int i = 0; i < argc; i++)
            sv_push(&cmd, argv[i]);
        return exec_cmd(&cmd);
    }

    if (!c.no_runtime) {
        ret = runtime_path(&rt);
        if (ret < 0) {
            fprintf(stderr,
                    "goldi: runtime library %s: %s (build the goldi_rt target, or set "
                    "GOLDI_RUNTIME_DIR)\n",
                    rt ? rt : RT_NAME, strerror(-ret));
            return 1;
        }
    }
    fam = detect_family(&cc);
    if (fam == FAM_GCC && c.n_sources > 0)
        return gcc_split(&cc, &c, rt);

    if (fam == FAM_GCC) {
        /* Link only: drop what would make GCC link libtsan. */
        for (size_t i = 0; i < c.nargs; i++) {
            const struct arg *a = &c.args[i];
            if (a->kind == ARG_OPT && (a->flags & F_TSANLIB))
                continue;
            if (a->kind == ARG_OPT && (a->flags & F_SAN)) {
                const char *rest = san_without_thread(a->tok[0]);
                if (rest)
                    sv_push(&cmd, rest);
                continue;
            }
            for (int k = 0; k < a->ntok; k++)
                sv_push(&cmd, a->tok[k]);
        }
    } else {
        bool sanitize = c.has_tsan || c.n_sources > 0;
        if (!c.has_tsan && c.n_sources > 0)
            sv_push(&cmd, "-fsanitize=thread");
        sv_extend(&cmd, &toks);
        if (sanitize)
            sv_push(&cmd, "-fno-sanitize-link-runtime");
        if (c.has_lang && rt) {
            /* A trailing "-x c" would make the archive a C source. */
            sv_push(&cmd, "-x");
            sv_push(&cmd, "none");
        }
    }
    if (rt)
        push_runtime(&cmd, rt);
    return exec_cmd(&cmd);
}
