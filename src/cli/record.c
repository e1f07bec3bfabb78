/* `goldi record [-o FILE] -- PROGRAM ARGS...`: runs an instrumented program
 * (built with goldi cc) with GOLDI_OPTIONS extended by trace_out=FILE, so its
 * runtime writes the event stream into FILE (src/trace/writer.c). The
 * program's own options (engines, log_path, ...) are kept. CLI code: libc. */
#define _GNU_SOURCE
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int usage(void) {
    fprintf(stderr, "usage: goldi record [-o FILE] [--engine=LIST] -- PROGRAM [ARGS...]\n"
                    "  records one run of PROGRAM (built with goldi cc) into FILE\n"
                    "  (default: PROGRAM's name + .gtb); analyze it with goldi analyze FILE\n");
    return GOLDI_CLI_USAGE;
}

int goldi_cli_record(int argc, char **argv) {
    const char *out = NULL, *engine = NULL;
    int i = 0;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (strcmp(a, "-o") == 0 && i + 1 < argc) {
            out = argv[++i];
        } else if (strncmp(a, "-o", 2) == 0 && a[2]) {
            out = a + 2;
        } else if (strncmp(a, "--engine=", 9) == 0) {
            engine = a + 9;
        } else if (a[0] == '-') {
            fprintf(stderr, "goldi record: unknown option '%s'\n", a);
            return usage();
        } else {
            break;   /* PROGRAM without "--" */
        }
    }
    if (i >= argc)
        return usage();
    char **prog = argv + i;
    static char defname[4096];
    if (!out) {
        const char *b = strrchr(prog[0], '/');
        snprintf(defname, sizeof defname, "%s.gtb", b ? b + 1 : prog[0]);
        out = defname;
    }
    /* Option values end at white space or ':' (src/rt/options.c). */
    if (strpbrk(out, " \t\n:") || (engine && strpbrk(engine, " \t\n:"))) {
        fprintf(stderr, "goldi record: '%s' cannot be passed in GOLDI_OPTIONS (no spaces or ':')\n",
                strpbrk(out, " \t\n:") ? out : engine);
        return GOLDI_CLI_USAGE;
    }
    /* A stale file must not pass for this run's trace. */
    if (unlink(out) != 0 && errno != ENOENT) {
        fprintf(stderr, "goldi record: cannot replace %s: %s\n", out, strerror(errno));
        return 1;
    }
    const char *old = getenv("GOLDI_OPTIONS");
    size_t n = (old ? strlen(old) : 0) + strlen(out) + (engine ? strlen(engine) : 0) + 64;
    char *opts = malloc(n);
    snprintf(opts, n, "%s%strace_out=%s%s%s", old ? old : "", old && old[0] ? " " : "", out,
             engine ? " engine=" : "", engine ? engine : "");
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        perror("goldi record: fork");
        return 1;
    }
    if (pid == 0) {
        char pidbuf[32];
        snprintf(pidbuf, sizeof pidbuf, "%d", (int)getpid());
        setenv("GOLDI_OPTIONS", opts, 1);
        /* Only this process records; instrumented programs it starts inherit
         * GOLDI_OPTIONS but see another pid (src/rt/init.c). */
        setenv("GOLDI_TRACE_PID", pidbuf, 1);
        execvp(prog[0], prog);
        fprintf(stderr, "goldi record: cannot run %s: %s\n", prog[0], strerror(errno));
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    free(opts);
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    struct stat st;
    if (stat(out, &st) != 0) {
        fprintf(stderr, "goldi record: %s wrote no trace (was it built with goldi cc?)\n", prog[0]);
        return code ? code : 1;
    }
    fprintf(stderr, "goldi record: wrote %s (%lld bytes)%s\n", out, (long long)st.st_size,
            WIFSIGNALED(status) ? "; the program was killed: the trace is partial (goldi analyze --partial)" : "");
    return code;
}
