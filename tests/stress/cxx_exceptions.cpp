// C++ exceptions thrown through instrumented frames: 2 x 10,000 throws, each
// unwinding 8 instrumented frames, on two threads. An unwound frame runs no
// normal return; if its __tsan_func_exit were skipped, the shadow call stack
// would keep the dead frames and grow by 8 per throw. GCC and Clang emit the
// exit in the frames' cleanup paths, so the stack stays balanced: the final
// race (in racer, called straight from worker) must be reported with
// worker as frame #1, and the program must not slow down or crash.
// STRESS-EXIT: 66
// STRESS-REPORTS: 1-2
// STRESS-CHECK: #1 worker(void*)
// STRESS-ABSENT: #1 level(int, int)
// STRESS-CHECK: #0 racer()
#include "stress.h"
#include <pthread.h>
#include <stdexcept>
#include <string>

int racy;
static thread_local long caught;

__attribute__((noinline)) static int level(int n, int v) {
    std::string s(40, 'x');   // a destructor to run during unwinding
    if (n == 0) {
        if (v % 3 == 0)
            throw std::runtime_error("deep");
        return v + (int)s.size();
    }
    return level(n - 1, v) + 1;
}

__attribute__((noinline)) static void racer() { racy++; }

static void *worker(void *) {
    long sum = 0;
    for (int i = 0; i < 30000; i++) {
        try {
            sum += level(7, i);
        } catch (const std::exception &e) {
            caught++;
        }
    }
    racer();
    return (void *)(sum + caught);
}

int main() {
    stress_watchdog(50);
    pthread_t a, b;
    pthread_create(&a, nullptr, worker, nullptr);
    pthread_create(&b, nullptr, worker, nullptr);
    pthread_join(a, nullptr);
    pthread_join(b, nullptr);
    printf("cxx_exceptions: %d\n", racy);
    return 0;
}
