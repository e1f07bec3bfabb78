/* Helpers shared by the stress programs (tests/stress): peak memory, wall
 * clock, a watchdog that turns a hang into a clear failure, and checks that
 * print one line and exit 1 (the runner then shows the program's output).
 * Programs include it and stay self-contained otherwise. */
#ifndef STRESS_H
#define STRESS_H

#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define STRESS_FAIL(...)                                              \
    do {                                                              \
        fprintf(stderr, "STRESS FAIL (%s:%d): ", __FILE__, __LINE__); \
        fprintf(stderr, __VA_ARGS__);                                 \
        fprintf(stderr, "\n");                                        \
        exit(1);                                                      \
    } while (0)
#define STRESS_CHECK(cond, ...)        \
    do {                               \
        if (!(cond))                   \
            STRESS_FAIL(__VA_ARGS__);  \
    } while (0)

/* Peak resident set size of this process in KiB (VmHWM), -1 if unknown.
 * Reads /proc with raw syscalls' worth of libc only (open/read). */
static inline long stress_peak_rss_kb(void) {
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    char line[256];
    long kb = -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0) {
            kb = strtol(line + 6, NULL, 10);
            break;
        }
    fclose(f);
    return kb;
}

static inline long stress_rss_kb(void) {
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    char line[256];
    long kb = -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "VmRSS:", 6) == 0) {
            kb = strtol(line + 6, NULL, 10);
            break;
        }
    fclose(f);
    return kb;
}

static inline double stress_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Fails (exit 3) if `limit_mb` MiB of peak RSS were exceeded. */
static inline void stress_check_peak(const char *what, long limit_mb) {
    long kb = stress_peak_rss_kb();
    printf("%s: peak RSS %ld MiB (limit %ld)\n", what, kb / 1024, limit_mb);
    fflush(stdout);
    STRESS_CHECK(kb >= 0 && kb / 1024 <= limit_mb, "%s: peak RSS %ld MiB > %ld MiB", what, kb / 1024,
                 limit_mb);
}

/* A hang becomes exit status 124 with a message after `seconds`. Uses
 * SIGALRM via alarm(): programs that use SIGALRM themselves do not call it. */
static void stress_watchdog_fire(int sig) {
    (void)sig;
    static const char msg[] = "STRESS FAIL: watchdog: program hung\n";
    if (write(2, msg, sizeof msg - 1) < 0) {
    }
    _exit(124);
}
static inline void stress_watchdog(unsigned seconds) {
    signal(SIGALRM, stress_watchdog_fire);
    alarm(seconds);
}

/* Waits for child number r (pid) and fails unless it exited with status 0. */
#include <sys/wait.h>
static inline void stress_wait_child(pid_t pid, int r) {
    int status;
    STRESS_CHECK(waitpid(pid, &status, 0) == pid, "waitpid");
    STRESS_CHECK(WIFEXITED(status), "child %d died (signal %d)", r, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    STRESS_CHECK(WEXITSTATUS(status) == 0, "child %d exit status %d", r, WEXITSTATUS(status));
}

#endif
