/* measure: run one command and report what /usr/bin/time -f "%e %U %S %M"
 * reports (wall, user, sys, peak RSS from wait4's rusage), but with
 * microsecond wall resolution, ~1 ms launch overhead instead of the ~10 ms of
 * `timeout /usr/bin/time`, and a built-in timeout that kills the whole
 * process group. The child's stdin/stdout/stderr are inherited.
 *
 * usage: measure [-o FILE] [-T SECONDS] -- CMD [ARGS...]
 * writes one line: wall_s user_s sys_s maxrss_kb status timed_out
 * (status = exit code, or 128+signal). Exits 0 unless it could not run CMD. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t expired;

static void on_alarm(int sig)
{
    (void)sig;
    expired = 1;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    const char *outpath = NULL;
    double limit = 0;
    int c;
    while ((c = getopt(argc, argv, "+o:T:")) != -1) {
        if (c == 'o')
            outpath = optarg;
        else if (c == 'T')
            limit = atof(optarg);
        else
            return 125;
    }
    if (optind < argc && strcmp(argv[optind], "--") == 0)
        optind++;
    if (optind >= argc) {
        fprintf(stderr, "usage: measure [-o FILE] [-T SECONDS] -- CMD [ARGS...]\n");
        return 125;
    }

    double t0 = now();
    pid_t pid = fork();
    if (pid < 0) {
        perror("measure: fork");
        return 125;
    }
    if (pid == 0) {
        /* Own process group, so a timeout also reaches helpers the tool forks. */
        setpgid(0, 0);
        execvp(argv[optind], &argv[optind]);
        fprintf(stderr, "measure: cannot run %s: %s\n", argv[optind], strerror(errno));
        _exit(127);
    }
    setpgid(pid, pid);

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm; /* no SA_RESTART: wait4 must return EINTR */
    sigaction(SIGALRM, &sa, NULL);
    if (limit > 0) {
        struct itimerval it = {{0, 0}, {(time_t)limit, (suseconds_t)((limit - (double)(time_t)limit) * 1e6)}};
        setitimer(ITIMER_REAL, &it, NULL);
    }

    int st = 0, timed_out = 0;
    struct rusage ru;
    for (;;) {
        pid_t r = wait4(pid, &st, 0, &ru);
        if (r == pid)
            break;
        if (r < 0 && errno == EINTR && expired && !timed_out) {
            timed_out = 1;
            killpg(pid, SIGKILL);
            kill(pid, SIGKILL);
            continue;
        }
        if (r < 0 && errno != EINTR) {
            perror("measure: wait4");
            return 125;
        }
    }
    double wall = now() - t0;
    int status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);

    FILE *f = outpath ? fopen(outpath, "w") : stderr;
    if (!f) {
        perror("measure: output file");
        return 125;
    }
    fprintf(f, "%.6f %.6f %.6f %ld %d %d\n", wall, (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec,
            (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec, ru.ru_maxrss, status, timed_out);
    if (outpath)
        fclose(f);
    return 0;
}
