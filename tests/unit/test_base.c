/* Unit tests of base/ (formatting, allocator) and shadow/. */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness.h"
#include "base/alloc.h"
#include "base/fmt.h"
#include "shadow/shadow.h"
#include "platform/platform.h"

CASE(fmt_matches_libc) {
    char a[128], b[128];
    goldi_snprintf(a, sizeof a, "%d %u %x %lx %s %c %% %5d|%-4s|%08x %zu %lld", -42, 7u, 0xabcu,
                   0xdeadbeefUL, "str", 'c', 33, "ab", 0x1f, (size_t)99, -5LL);
    snprintf(b, sizeof b, "%d %u %x %lx %s %c %% %5d|%-4s|%08x %zu %lld", -42, 7u, 0xabcu,
             0xdeadbeefUL, "str", 'c', 33, "ab", 0x1f, (size_t)99, -5LL);
    EXPECT(strcmp(a, b) == 0);
    void *p = (void *)0x1234;
    goldi_snprintf(a, sizeof a, "%p", p);
    EXPECT(strcmp(a, "0x1234") == 0);
}

CASE(fmt_truncates_and_terminates) {
    char a[8];
    int n = goldi_snprintf(a, sizeof a, "%s", "0123456789");
    EXPECT_EQ(n, 10);
    EXPECT(strcmp(a, "0123456") == 0);
}

CASE(alloc_sizes_zeroed_and_reused) {
    size_t before = goldi_alloc_bytes_in_use();
    for (size_t n = 1; n < 200000; n = n * 3 + 1) {
        unsigned char *p = goldi_alloc(n);
        EXPECT(((uintptr_t)p & 15) == 0);
        for (size_t i = 0; i < n; i++)
            EXPECT(p[i] == 0);
        memset(p, 0xab, n);
        p = goldi_realloc(p, n * 2);
        EXPECT(p[n - 1] == 0xab);
        goldi_free(p);
    }
    EXPECT_EQ(goldi_alloc_bytes_in_use(), before);
    /* A freed block is handed out again (and zeroed). */
    void *a = goldi_alloc(40);
    memset(a, 1, 40);
    goldi_free(a);
    unsigned char *b = goldi_alloc(40);
    EXPECT(b == a);
    EXPECT(b[0] == 0 && b[39] == 0);
    goldi_free(b);
}

/* A mapped block (> 32 KiB) grows by mremap: every byte kept, the new tail
 * zero, the accounting exact, also when the mapping has to move (a block
 * mapped right after it), and a shrink request is a no-op. */
CASE(alloc_realloc_moves_mapped_blocks) {
    size_t before = goldi_alloc_bytes_in_use();
    size_t n = 48 * 1024, map = 13 * 4096;   /* n and the header, in pages */
    unsigned char *p = goldi_alloc(n);
    EXPECT_EQ(goldi_alloc_bytes_in_use(), before + map);
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(i * 7 + 1);
    void *blocker = goldi_mmap(1 << 20);   /* (likely in the way of growing in place) */
    for (size_t grown = n * 2; grown <= n * 64; grown *= 4) {
        p = goldi_realloc(p, grown);
        EXPECT(((uintptr_t)p & 15) == 0);
        size_t bad = 0;
        for (size_t i = 0; i < n; i++)
            bad += p[i] != (unsigned char)(i * 7 + 1);
        for (size_t i = n; i < grown; i++)
            bad += p[i] != 0;
        EXPECT_EQ(bad, 0);
        EXPECT_EQ(goldi_alloc_bytes_in_use(), before + ((grown + 16 + 4095) & ~(size_t)4095));
        memset(p + n, 0, grown - n);   /* (the next round's tail is checked again) */
    }
    EXPECT(goldi_realloc(p, 10) == p);
    goldi_free(p);
    goldi_munmap(blocker, 1 << 20);
    EXPECT_EQ(goldi_alloc_bytes_in_use(), before);
}

CASE(shadow_words_are_per_byte_and_sparse) {
    unsigned p = goldi_shadow_plane_new();
    static char data[64];
    uintptr_t a = (uintptr_t)data;
    EXPECT(goldi_shadow_word_if_present(p, a) == NULL);
    goldi_shadow_word_t *w = goldi_shadow_word(p, a);
    EXPECT(goldi_shadow_word(p, a + 1) == w + 1);
    atomic_store(w, 7);
    atomic_store(goldi_shadow_word(p, a + 5), 9);
    EXPECT(goldi_shadow_word_if_present(p, a) == w);
    /* Another plane is independent. */
    unsigned q = goldi_shadow_plane_new();
    EXPECT(atomic_load(goldi_shadow_word(q, a)) == 0);
    /* Far-away addresses (top of the 47-bit user space) work. */
    goldi_shadow_word_t *far = goldi_shadow_word(p, 0x7ffffffff000ull);
    atomic_store(far, 1);
    EXPECT(atomic_load(goldi_shadow_word(p, 0x7ffffffff000ull)) == 1);
    /* Either side of a leaf's end (every 1 MiB of the application): two
     * leaves, each word its own; words a leaf apart are distinct too. */
    const uintptr_t edge = 0x300000100000ull, leaf = 0x100000;
    goldi_shadow_word_t *before = goldi_shadow_word(p, edge - 1), *after = goldi_shadow_word(p, edge);
    EXPECT(goldi_shadow_word_if_present(p, edge - GOLDI_GRANULE) == before - (GOLDI_GRANULE - 1));
    EXPECT(goldi_shadow_word_if_present(p, edge + leaf) == NULL);   /* the next leaf: never touched */
    atomic_store(before, 3);
    atomic_store(after, 4);
    EXPECT(atomic_load(goldi_shadow_word(p, edge - 1)) == 3 && atomic_load(goldi_shadow_word(p, edge)) == 4);
    goldi_shadow_word_t *next = goldi_shadow_word(p, edge - 1 + leaf);
    EXPECT(next != before && next != after && atomic_load(next) == 0);
    EXPECT(goldi_shadow_word_if_present(q, edge) == NULL);
}

static void count_and_clear(void *ctx, uintptr_t addr, goldi_shadow_word_t *w) {
    (*(int *)ctx) += (int)atomic_load(w);
    atomic_store(w, 0);
}

CASE(shadow_for_each_visits_nonzero_words) {
    unsigned p = goldi_shadow_plane_new();
    static char data[4096];
    uintptr_t a = (uintptr_t)data;
    atomic_store(goldi_shadow_word(p, a + 3), 1);
    atomic_store(goldi_shadow_word(p, a + 100), 10);
    atomic_store(goldi_shadow_word(p, a + 4000), 100);
    int sum = 0;
    goldi_shadow_for_each(p, a, 1000, count_and_clear, &sum);
    EXPECT_EQ(sum, 11);
    sum = 0;
    goldi_shadow_for_each(p, a, 4096, count_and_clear, &sum);
    EXPECT_EQ(sum, 100);
    /* Absent leaves are skipped: a huge range costs nothing. */
    goldi_shadow_for_each(p, 0x100000000000ull, (size_t)1 << 40, count_and_clear, &sum);
    EXPECT_EQ(sum, 100);
}

/* Sums the granule's words into ctx (at base - data's start, scaled) and clears them. */
struct granule_visits { uintptr_t start; int n; uint64_t where, sum; };
static void sum_granule(void *ctx, uintptr_t base, goldi_shadow_word_t *w) {
    struct granule_visits *v = ctx;
    v->n++;
    v->where += base - v->start;
    for (unsigned i = 0; i < GOLDI_GRANULE; i++)
        v->sum += atomic_exchange(&w[i], 0);
}

CASE(shadow_for_each_granule_visits_granules_with_state) {
    unsigned p = goldi_shadow_plane_new();
    static _Alignas(GOLDI_GRANULE) char data[4096];
    uintptr_t a = (uintptr_t)data;
    atomic_store(goldi_shadow_word(p, a + 3), 1);     /* granule 0 */
    atomic_store(goldi_shadow_word(p, a + 7), 2);     /* granule 0 again: one visit */
    atomic_store(goldi_shadow_word(p, a + 1000), 10); /* granule 125 */
    atomic_store(goldi_shadow_word(p, a + 4095), 100);
    struct granule_visits v = { .start = a };
    goldi_shadow_for_each_granule(p, a, 1008, sum_granule, &v);
    EXPECT_EQ(v.n, 2);
    EXPECT_EQ(v.where, 1000 - 1000 % GOLDI_GRANULE);
    EXPECT_EQ(v.sum, 13);
    v = (struct granule_visits){ .start = a };
    goldi_shadow_for_each_granule(p, a, sizeof data, sum_granule, &v);
    EXPECT_EQ(v.n, 1);   /* the others were cleared */
    EXPECT_EQ(v.sum, 100);
    goldi_shadow_for_each_granule(p, 0x100000000000ull, (size_t)1 << 40, sum_granule, &v);
    EXPECT_EQ(v.n, 1);   /* absent leaves skipped */
}

/* Pages of [p, p + n) that are resident, as a count (mincore). */
static int resident_pages(const void *p, size_t n) {
    static unsigned char vec[1024];
    size_t pages = n / (size_t)sysconf(_SC_PAGESIZE);
    if (pages > sizeof vec || mincore((void *)p, n, vec) != 0)
        return -1;
    int k = 0;
    for (size_t i = 0; i < pages; i++)
        k += vec[i] & 1;
    return k;
}

/* A thread's state is kept mapped when freed, for the next thread's state
 * of the same size, and comes back zeroed; a few are kept, the rest
 * unmapped (mincore fails on an unmapped range). Fresh ones are committed
 * only as they are touched. */
CASE(alloc_thread_state_kept_and_zeroed) {
    size_t before = goldi_alloc_bytes_in_use(), n = 100 * 4096;
    size_t map = 101 * 4096;                        /* n and the allocator's 16-byte header */
    unsigned char *st = goldi_alloc_thread_state(n, 0, 0);
    EXPECT(resident_pages(st - 16, map) <= 1);      /* (the header's page, written) */
    unsigned char *small = goldi_alloc_thread_state(40, 0, 0);   /* a class block: as goldi_alloc */
    EXPECT(small[0] == 0 && small[39] == 0);
    goldi_free(small);
    memset(st, 0x5a, n);
    goldi_free(st);
    EXPECT_EQ(resident_pages(st - 16, map), 101);   /* still mapped: kept */
    unsigned char *again = goldi_alloc_thread_state(n, 0, 0);
    EXPECT(again == st);
    for (size_t i = 0; i < n; i += 512)
        EXPECT(again[i] == 0);
    unsigned char *many[20];
    for (int i = 0; i < 20; i++) {
        many[i] = goldi_alloc_thread_state(n, 0, 0);
        many[i][0] = 1;
    }
    for (int i = 0; i < 20; i++)
        goldi_free(many[i]);
    int kept = 0, unmapped = 0;
    for (int i = 0; i < 20; i++) {
        int r = resident_pages(many[i] - 16, map);
        kept += r >= 1;
        unmapped += r == -1;
    }
    EXPECT(kept >= 1 && kept <= 8);
    EXPECT_EQ(kept + unmapped, 20);
    goldi_free(again);
    EXPECT_EQ(goldi_alloc_bytes_in_use(), before);
}

/* A kept range comes back as the last owner left it; the rest is zeroed. */
CASE(alloc_thread_state_keeps_its_range) {
    size_t n = 100 * 4096, off = 8 * 4096 + 24, len = 50 * 4096 + 8;
    unsigned char *st = goldi_alloc_thread_state(n, off, len);
    memset(st, 0x5a, n);
    goldi_free(st);
    unsigned char *again = goldi_alloc_thread_state(n, off, len);
    EXPECT(again == st);
    size_t bad_zero = 0, bad_kept = 0;
    for (size_t i = 0; i < n; i++) {
        bool in = i >= off && i < off + len;
        bad_kept += in && again[i] != 0x5a;
        bad_zero += !in && again[i] != 0;
    }
    EXPECT_EQ(bad_kept, 0);
    EXPECT_EQ(bad_zero, 0);
    goldi_free(again);
}

/* goldi_shadow_will_write commits the shadow of an 8 KiB block of the
 * application (64 KiB of words) once empty granules got state on 4 of its
 * 16 shadow pages (512 bytes of the application each): not before, not for
 * repeats on one page, and never the neighbouring blocks; every word still
 * reads 0. */
CASE(shadow_will_write_commits_dense_blocks) {
    unsigned p = goldi_shadow_plane_new();
    const uintptr_t a = 0x200000000000ull;   /* a leaf of its own (1 MiB-aligned) */
    size_t page = (size_t)sysconf(_SC_PAGESIZE), block = 8192 * sizeof(goldi_shadow_word_t);
    void *probe = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    bool kernel_has_it = goldi_os_populate(probe, page);   /* else the calls are no-ops */
    munmap(probe, page);
    goldi_shadow_word_t *leaf = goldi_shadow_word(p, a);
    char *b1 = (char *)leaf + block;                          /* shadow of block 1 */
    for (int i = 0; i < 3; i++) {
        goldi_shadow_will_write(p, a + 8192 + 512 * (uintptr_t)i);
        goldi_shadow_will_write(p, a + 8192 + 512 * (uintptr_t)i + 64);   /* same page */
    }
    EXPECT_EQ(resident_pages(b1, block), 0);                  /* three pages: sparse so far */
    goldi_shadow_will_write(p, a + 8192 + 512 * 9);
    if (kernel_has_it)
        EXPECT_EQ(resident_pages(b1, block), (int)(block / page));
    EXPECT_EQ(resident_pages(leaf, block), 0);                /* blocks 0 and 2 untouched */
    EXPECT_EQ(resident_pages(b1 + block, block), 0);
    goldi_shadow_will_write(p, a + 8192 + 512 * 12);          /* committed: a byte test only */
    goldi_shadow_will_write(p, 0x300000000000ull);            /* no leaf there: nothing */
    EXPECT(goldi_shadow_word_if_present(p, 0x300000000000ull) == NULL);
    for (size_t i = 0; i < 8192; i += 509)
        EXPECT(atomic_load((goldi_shadow_word_t *)b1 + i) == 0);
}

/* Commits block k of the leaf at a by the 4-page rule. */
static void commit_dense(unsigned p, uintptr_t a, unsigned k) {
    for (uintptr_t i = 0; i < 4; i++)
        goldi_shadow_will_write(p, a + 8192 * (uintptr_t)k + 512 * i);
}

/* A sweep (the two blocks before, or after, committed) commits the block it
 * enters and the 3 after (before) it at once, and an ascending one the next
 * 3 again as it enters the last of those; a block next to only one
 * committed block waits for its 4 pages. */
CASE(shadow_will_write_commits_ahead_of_sweeps) {
    unsigned p = goldi_shadow_plane_new();
    const uintptr_t a = 0x210000000000ull;   /* a leaf of its own */
    size_t page = (size_t)sysconf(_SC_PAGESIZE), block = 8192 * sizeof(goldi_shadow_word_t);
    void *probe = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    bool kernel_has_it = goldi_os_populate(probe, page);
    munmap(probe, page);
    if (!kernel_has_it)
        return;   /* (no MADV_POPULATE_WRITE: nothing is ever committed) */
    char *leaf = (char *)goldi_shadow_word(p, a);
#define COMMITTED(k) (resident_pages(leaf + block * (k), block) == (int)(block / page))
#define UNTOUCHED(k) (resident_pages(leaf + block * (k), block) == 0)
    commit_dense(p, a, 1);
    commit_dense(p, a, 2);
    goldi_shadow_will_write(p, a + 8192 * 3 + 100);   /* ascending sweep enters block 3 */
    for (int k = 3; k <= 6; k++)
        EXPECT(COMMITTED(k));
    EXPECT(UNTOUCHED(7));
    goldi_shadow_will_write(p, a + 8192 * 6 + 8);     /* ... and the last block committed ahead */
    for (int k = 7; k <= 9; k++)
        EXPECT(COMMITTED(k));
    EXPECT(UNTOUCHED(10));
    EXPECT(UNTOUCHED(0));
    commit_dense(p, a, 41);                           /* descending: 41, 40, then 39 */
    commit_dense(p, a, 40);
    goldi_shadow_will_write(p, a + 8192 * 39 + 4096);
    for (int k = 36; k <= 39; k++)
        EXPECT(COMMITTED(k));
    EXPECT(UNTOUCHED(35));
    commit_dense(p, a, 60);                           /* one committed neighbour: no sweep */
    goldi_shadow_will_write(p, a + 8192 * 61);
    EXPECT(UNTOUCHED(61));
    EXPECT(UNTOUCHED(59));
#undef COMMITTED
#undef UNTOUCHED
}

/* goldi_shadow_will_write_range commits the shadow blocks a range covers
 * whole, in every leaf it spans (installing the leaves), and nothing of a
 * block it covers in part; every word still reads 0. */
CASE(shadow_will_write_range_commits_covered_blocks) {
    unsigned p = goldi_shadow_plane_new();
    const uintptr_t a = 0x220000000000ull + (1u << 20) - 3 * 8192 - 100;   /* 3 blocks before a leaf's end, less 100 bytes */
    size_t page = (size_t)sysconf(_SC_PAGESIZE), block = 8192 * sizeof(goldi_shadow_word_t);
    void *probe = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    bool kernel_has_it = goldi_os_populate(probe, page);
    munmap(probe, page);
    goldi_shadow_will_write_range(p, a, 3 * 8192 + 100 + 2 * 8192 + 5000);   /* into the next leaf */
    char *first = (char *)goldi_shadow_word_if_present(p, a + 100) ;          /* (block-aligned) */
    char *second = (char *)goldi_shadow_word_if_present(p, 0x220000000000ull + (1u << 20));
    EXPECT(first != NULL && second != NULL);
    if (!first || !second || !kernel_has_it)
        return;
    for (int k = 0; k < 3; k++)
        EXPECT_EQ(resident_pages(first + block * k, block), (int)(block / page));
    EXPECT_EQ(resident_pages(first - block, block), 0);      /* the block the range starts inside */
    for (int k = 0; k < 2; k++)
        EXPECT_EQ(resident_pages(second + block * k, block), (int)(block / page));
    EXPECT_EQ(resident_pages(second + 2 * block, block), 0);  /* ... and the one it ends inside */
    for (size_t i = 0; i < 3 * 8192; i += 509)
        EXPECT(atomic_load((goldi_shadow_word_t *)first + i) == 0);
}

int main(void) {
    RUN(fmt_matches_libc);
    RUN(fmt_truncates_and_terminates);
    RUN(alloc_sizes_zeroed_and_reused);
    RUN(alloc_thread_state_kept_and_zeroed);
    RUN(alloc_thread_state_keeps_its_range);
    RUN(alloc_realloc_moves_mapped_blocks);
    RUN(shadow_words_are_per_byte_and_sparse);
    RUN(shadow_for_each_visits_nonzero_words);
    RUN(shadow_for_each_granule_visits_granules_with_state);
    RUN(shadow_will_write_commits_dense_blocks);
    RUN(shadow_will_write_commits_ahead_of_sweeps);
    RUN(shadow_will_write_range_commits_covered_blocks);
    return harness_summary();
}
