// ABI probe (C++): std::atomic of every width including 16-byte structs,
// every memory order and operation, atomic_flag, fences, vptr
// update/read (virtual classes), volatile. Only compiled, never run.
#include <atomic>
#include <cstdint>
#include <cstring>

template <typename T> T ops(std::atomic<T> &a, T v) {
    T r = 0, e = v;
    r += a.load();
    r += a.load(std::memory_order_relaxed);
    r += a.load(std::memory_order_consume);
    r += a.load(std::memory_order_acquire);
    a.store(v);
    a.store(v, std::memory_order_relaxed);
    a.store(v, std::memory_order_release);
    r += a.exchange(v, std::memory_order_acq_rel);
    r += a.fetch_add(v, std::memory_order_relaxed);
    r += a.fetch_sub(v, std::memory_order_release);
    r += a.fetch_and(v, std::memory_order_acquire);
    r += a.fetch_or(v, std::memory_order_acq_rel);
    r += a.fetch_xor(v, std::memory_order_seq_cst);
    r += a.compare_exchange_strong(e, v);
    r += a.compare_exchange_weak(e, v);
    r += a.compare_exchange_strong(e, v, std::memory_order_acq_rel, std::memory_order_acquire);
    r += a.compare_exchange_weak(e, v, std::memory_order_release, std::memory_order_relaxed);
    r += a.compare_exchange_strong(e, v, std::memory_order_seq_cst, std::memory_order_seq_cst);
    ++a;
    a--;
    a += v;
    return r + e;
}

std::atomic<uint8_t> a8;
std::atomic<uint16_t> a16;
std::atomic<uint32_t> a32;
std::atomic<uint64_t> a64;
std::atomic<bool> ab;
std::atomic<int *> ap;

uint64_t all_ints(uint64_t v) {
    return ops(a8, (uint8_t)v) + ops(a16, (uint16_t)v) + ops(a32, (uint32_t)v) + ops(a64, v) +
           ab.exchange(true) + (ap.load() != nullptr);
}

struct pair16 { uint64_t lo, hi; };
struct alignas(16) pair16a { uint64_t lo, hi; };
std::atomic<pair16> s16;
std::atomic<pair16a> s16a;
std::atomic<unsigned __int128> i128;   // no fetch_* in libstdc++: C probe covers them
struct pair8 { uint32_t a, b; };
std::atomic<pair8> s8;

uint64_t structs(uint64_t v) {
    pair16 p{v, v}, e{0, 0};
    s16.store(p, std::memory_order_release);
    p = s16.load(std::memory_order_acquire);
    p = s16.exchange(p);
    bool ok = s16.compare_exchange_strong(e, p);
    ok &= s16.compare_exchange_weak(e, p, std::memory_order_acq_rel, std::memory_order_relaxed);
    pair16a q{v, v}, qe{0, 0};
    s16a.store(q);
    q = s16a.load(std::memory_order_seq_cst);
    ok &= s16a.compare_exchange_strong(qe, q);
    pair8 r{1, 2}, re{0, 0};
    s8.store(r);
    ok &= s8.compare_exchange_strong(re, r);
    unsigned __int128 x = i128.load();
    i128.store(x + 1);
    x = i128.exchange(x);
    ok &= i128.compare_exchange_strong(x, x + 1);
    return p.lo + q.hi + ok + (uint64_t)x;
}

std::atomic_flag fl = ATOMIC_FLAG_INIT;
void fences() {
    fl.test_and_set(std::memory_order_acquire);
    fl.clear(std::memory_order_release);
    std::atomic_thread_fence(std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_acquire);
    std::atomic_thread_fence(std::memory_order_release);
    std::atomic_thread_fence(std::memory_order_acq_rel);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    std::atomic_signal_fence(std::memory_order_seq_cst);
}

// vptr: constructors/destructors store it, virtual calls load it.
struct Base {
    virtual ~Base() {}
    virtual int f() { return 1; }
    int x = 0;
};
struct Derived : Base {
    int f() override { return x + 2; }
};
int virtuals(Base *b) { return b->f(); }
Base *make() { return new Derived; }
void destroy(Base *b) { delete b; }

volatile int vi;
volatile long long vl;
int vol() { vi = vi + 1; vl += 2; return vi; }

struct Blob { char c[64]; };
void copy(Blob *d, const Blob *s) { *d = *s; std::memset(d, 0, sizeof *d); std::memcpy(d, s, sizeof *d); }
