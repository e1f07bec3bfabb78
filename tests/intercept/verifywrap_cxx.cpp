// verifywrap_cxx: every operator new/delete form goes through the runtime
// (blocks handed between threads by std::thread/std::mutex must not be
// reported; the contents survive), and failure semantics are kept:
// throwing new throws std::bad_alloc, nothrow new returns nullptr.
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

static int failures;
#define CHECK(c)                                                                   \
    do {                                                                           \
        if (!(c)) {                                                                \
            std::fprintf(stderr, "verifywrap_cxx: FAILED line %d: %s\n", __LINE__, #c); \
            failures++;                                                            \
        }                                                                          \
    } while (0)

struct alignas(64) Wide {
    long v[8];
};

int main() {
    std::mutex m;
    std::condition_variable cv;
    std::vector<long *> handed;
    bool done = false;
    std::thread consumer([&] {
        std::unique_lock<std::mutex> l(m);
        cv.wait(l, [&] { return done; });
        for (long *p : handed) {
            CHECK(*p == 42);
            delete p;   // freed by another thread than the allocator
        }
    });
    {
        std::lock_guard<std::mutex> l(m);
        for (int i = 0; i < 100; i++)
            handed.push_back(new long(42));
        done = true;
    }
    cv.notify_one();
    consumer.join();

    int *a = new int[1000];
    for (int i = 0; i < 1000; i++)
        a[i] = i;
    CHECK(a[999] == 999);
    delete[] a;

    Wide *w = new Wide;                       // aligned new (align_val_t)
    CHECK((reinterpret_cast<std::uintptr_t>(w) & 63) == 0);
    w->v[7] = 7;
    delete w;                                 // aligned sized delete
    Wide *wa = new Wide[3];
    CHECK((reinterpret_cast<std::uintptr_t>(wa) & 63) == 0);
    delete[] wa;

    int *nt = new (std::nothrow) int(5);
    CHECK(nt && *nt == 5);
    delete nt;
    int *nta = new (std::nothrow) int[4]();
    CHECK(nta && nta[3] == 0);
    delete[] nta;
    Wide *ntw = new (std::nothrow) Wide;
    CHECK(ntw && (reinterpret_cast<std::uintptr_t>(ntw) & 63) == 0);
    delete ntw;

    void *raw = ::operator new(100);
    ::operator delete(raw, 100);              // sized delete
    void *rawa = ::operator new[](100, std::align_val_t(256));
    CHECK((reinterpret_cast<std::uintptr_t>(rawa) & 255) == 0);
    ::operator delete[](rawa, std::align_val_t(256));
    void *rn = ::operator new(64, std::align_val_t(128), std::nothrow);
    ::operator delete(rn, std::align_val_t(128), std::nothrow);

    volatile std::size_t huge = SIZE_MAX / 2;
    bool threw = false;
    try {
        void *p = ::operator new(huge);
        ::operator delete(p);
    } catch (const std::bad_alloc &) {
        threw = true;
    }
    CHECK(threw);
    CHECK(::operator new(huge, std::nothrow) == nullptr);

    if (failures)
        return 1;
    std::printf("verifywrap_cxx: OK\n");
    return 0;
}
