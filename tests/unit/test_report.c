/* Unit tests for src/report/: symbolization of this test binary through
 * libdw, data symbols, the report text (the report is the oracle: every line
 * of the format is checked), dedup, report_limit and halt_on_error.
 * Reports go to a temp file that each case reads back. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "report/report.h"
#include "report/symbolize.h"
#include "report/dwfl_abi.h"
#include "event/sync.h"

/* EXPECT_HAS(text, needle): the report text contains needle. */
#define EXPECT_HAS(text, needle)                                                    \
    do {                                                                            \
        if (!strstr((text), (needle))) {                                            \
            printf("  FAILED %s:%d: missing \"%s\"\n", __FILE__, __LINE__, (needle)); \
            harness_case_failed = 1;                                                \
        }                                                                           \
    } while (0)

/* --- code and data to symbolize ---------------------------------------------
 * Each target_* returns a return address inside itself: the call site of
 * ret_addr(), on the line recorded in target_*_line. */
__attribute__((noinline)) uintptr_t goldi_test_ret_addr(void) {
    return (uintptr_t)__builtin_return_address(0);
}
static volatile int sink;
static int target_a_line, target_b_line, target_c_line;
__attribute__((noinline)) uintptr_t report_target_a(void) {
    target_a_line = __LINE__ + 1;
    uintptr_t pc = goldi_test_ret_addr();
    sink++;
    return pc;
}
__attribute__((noinline)) uintptr_t report_target_b(void) {
    target_b_line = __LINE__ + 1;
    uintptr_t pc = goldi_test_ret_addr();
    sink++;
    return pc;
}
__attribute__((noinline)) uintptr_t report_target_c(void) {
    target_c_line = __LINE__ + 1;
    uintptr_t pc = goldi_test_ret_addr();
    sink++;
    return pc;
}
int goldi_test_counter[4];   /* a global racy variable: 16 bytes */

/* --- report capture ---------------------------------------------------------- */
static char out_path[] = "/tmp/goldi_test_report_XXXXXX";
static int out_fd = -1;
static char text[1 << 16];

static void capture_reset(void) {
    /* the report writes at the fd's offset: rewind it too */
    if (ftruncate(out_fd, 0) != 0 || lseek(out_fd, 0, SEEK_SET) != 0)
        abort();
}
static const char *captured(void) {
    ssize_t n = pread(out_fd, text, sizeof text - 1, 0);
    text[n > 0 ? n : 0] = 0;
    return text;
}
static int count_of(const char *hay, const char *needle) {
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* --- hooks ------------------------------------------------------------------- */
static goldi_origin_t create_origin_t1, create_origin_t2, heap_alloc_origin;
static uintptr_t heap_block;

static bool fake_thread_info(goldi_tid_t tid, int *os_tid, bool *running, goldi_tid_t *parent,
                             goldi_origin_t *create) {
    switch (tid) {
    case 0:
        *os_tid = 4000, *running = true, *parent = GOLDI_TID_NONE, *create = 0;
        return true;
    case 1:
        *os_tid = 4001, *running = false, *parent = 0, *create = create_origin_t1;
        return true;
    case 2:
        *os_tid = 4002, *running = true, *parent = 1, *create = create_origin_t2;
        return true;
    default:
        return false;
    }
}
static size_t fake_describe(uintptr_t addr, char *buf, size_t n, goldi_origin_t *ao) {
    if (addr < heap_block || addr >= heap_block + 64)
        return 0;
    *ao = heap_alloc_origin;
    return (size_t)snprintf(buf, n, "Location is heap block of size 64 at 0x%lx allocated by thread T1:",
                            (unsigned long)heap_block);
}
static jmp_buf halt_jmp;
static int halt_code = -1;
static void fake_halt(int code) {
    halt_code = code;
    longjmp(halt_jmp, 1);
}

static struct goldi_report_config base_cfg(void) {
    struct goldi_report_config c = { .fd = out_fd, .exitcode = 66, .symbolize = true };
    c.hooks.thread_info = fake_thread_info;
    c.hooks.describe_location = fake_describe;
    c.hooks.halt = fake_halt;
    return c;
}

/* --- origins and races ---------------------------------------------------------- */
static uintptr_t pc_a, pc_b, pc_c;
static uintptr_t mutex_addr, rwlock_addr;

static goldi_origin_t mk_origin(uint32_t size, uint32_t flags, uintptr_t top,
                                uint32_t n_held, const uintptr_t *held, const uint8_t *modes) {
    uintptr_t frames[2] = { top, pc_c };
    struct goldi_origin_info in = { .size = size, .flags = flags, .n_frames = 2,
                                    .frames = frames, .n_held = n_held, .held_addr = held,
                                    .held_mode = modes };
    goldi_origin_t id = goldi_origin_intern(&in);
    EXPECT(id != 0);
    return id;
}

static struct goldi_race mk_race(uintptr_t addr, goldi_origin_t cur, goldi_origin_t prev) {
    struct goldi_race r = { .addr = addr, .size = 4, .cur = cur, .prev = prev, .cur_tid = 2,
                            .prev_tid = 1, .cur_write = true, .engine = "test" };
    strcpy(r.why, "test why: T2 not in lockset");
    return r;
}

/* A plain write by T2 (no locks) racing with a read by T1 under a mutex and
 * a read-held rwlock, at top pcs a and b. */
static goldi_origin_t o_write_a, o_read_b, o_write_c, o_read_a;
static void make_origins(void) {
    static uint8_t mutex_obj[64], rwlock_obj[64];
    mutex_addr = (uintptr_t)mutex_obj;
    rwlock_addr = (uintptr_t)rwlock_obj;
    goldi_sync_get(mutex_addr, GOLDI_SYNC_MUTEX);
    goldi_sync_get(rwlock_addr, GOLDI_SYNC_RWLOCK);
    uintptr_t held[2] = { mutex_addr, rwlock_addr };
    uint8_t modes[2] = { GOLDI_LOCK_EXCL, GOLDI_LOCK_SHARED };
    o_write_a = mk_origin(4, GOLDI_ORIGIN_WRITE, pc_a, 0, NULL, NULL);
    o_read_b = mk_origin(4, 0, pc_b, 2, held, modes);
    o_write_c = mk_origin(4, GOLDI_ORIGIN_WRITE, pc_c, 0, NULL, NULL);
    o_read_a = mk_origin(4, 0, pc_a, 0, NULL, NULL);
    create_origin_t1 = mk_origin(0, 0, pc_c, 0, NULL, NULL);
    create_origin_t2 = mk_origin(0, 0, pc_b, 0, NULL, NULL);
    heap_alloc_origin = mk_origin(64, 0, pc_b, 0, NULL, NULL);
}

/* --- cases ------------------------------------------------------------------------ */

CASE(report_symbolize_function) {
    struct goldi_frame f;
    EXPECT(goldi_symbolize(pc_a, true, &f));
    EXPECT(goldi_symbolize_have_libdw());
    EXPECT(f.pc == pc_a - 1);
    EXPECT(f.function && strcmp(f.function, "report_target_a") == 0);
    EXPECT(f.file && strstr(f.file, "test_report.c"));
    EXPECT(f.file && f.file[0] == '/');
    EXPECT(f.line == target_a_line);
    EXPECT(f.module && strcmp(f.module, "test_report") == 0);
    if (f.function)
        printf("  %s %s:%d (%s+0x%lx)\n", f.function, f.file, f.line, f.module,
               (unsigned long)f.module_offset);
    /* cached answer is identical */
    struct goldi_frame g;
    EXPECT(goldi_symbolize(pc_a, true, &g));
    EXPECT(g.function == f.function && g.file == f.file && g.line == f.line);
    /* a libc function resolves too (module is libc) */
    /* dlsym: the real libc entry, not a PLT stub in a non-PIE test binary */
    EXPECT(goldi_symbolize((uintptr_t)dlsym(RTLD_DEFAULT, "strstr") + 1, true, &g));
    EXPECT(g.module && strstr(g.module, "libc"));
    /* pc 0 and an address in no module */
    EXPECT(!goldi_symbolize(0, true, &g));
    EXPECT(!goldi_symbolize(0x10, false, &g) && g.module == NULL);
}

CASE(report_symbolize_data) {
    const char *name = NULL, *mod = NULL;
    uintptr_t start = 0, off = 0;
    size_t size = 0;
    EXPECT(goldi_symbolize_data((uintptr_t)&goldi_test_counter[2], &name, &start, &size, &mod, &off));
    EXPECT(name && strcmp(name, "goldi_test_counter") == 0);
    EXPECT(start == (uintptr_t)goldi_test_counter);
    EXPECT(size == sizeof goldi_test_counter);
    EXPECT(mod && strcmp(mod, "test_report") == 0);
    void *heap = malloc(32);
    EXPECT(!goldi_symbolize_data((uintptr_t)heap, &name, &start, &size, &mod, &off));
    int local;
    EXPECT(!goldi_symbolize_data((uintptr_t)&local, &name, &start, &size, &mod, &off));
    /* a code address is not data */
    EXPECT(!goldi_symbolize_data(pc_a, &name, &start, &size, &mod, &off));
    free(heap);
}

CASE(report_symbolize_off) {
    goldi_symbolize_set_debuginfo(false);
    struct goldi_frame f;
    EXPECT(!goldi_symbolize(pc_a, true, &f));
    EXPECT(f.function == NULL && f.file == NULL);
    EXPECT(f.module && strcmp(f.module, "test_report") == 0);
    EXPECT(f.module_offset != 0);
    goldi_symbolize_set_debuginfo(true);
    EXPECT(goldi_symbolize(pc_a, true, &f) && f.function);
}

CASE(report_text) {
    struct goldi_report_config c = base_cfg();
    goldi_report_init(&c);
    capture_reset();
    struct goldi_race r = mk_race((uintptr_t)&goldi_test_counter[1], o_write_a, o_read_b);
    goldi_report_race(NULL, &r);
    const char *t = captured();
    printf("%s", t);
    char buf[512];
    EXPECT(strncmp(t, "==================\nWARNING: Goldilocks: data race (pid=", 55) == 0);
    snprintf(buf, sizeof buf, "  Write of size 4 at 0x%lx by thread T2:\n    #0 report_target_a /",
             (unsigned long)&goldi_test_counter[1]);
    EXPECT_HAS(t, buf);
    snprintf(buf, sizeof buf, "test_report.c:%d (test_report+0x", target_a_line);
    EXPECT_HAS(t, buf);
    snprintf(buf, sizeof buf, "    #1 report_target_c /");
    EXPECT_HAS(t, buf);
    EXPECT_HAS(t, "  Locks held by T2: none\n");
    snprintf(buf, sizeof buf, "  Previous read of size 4 at 0x%lx by thread T1:\n    #0 report_target_b ",
             (unsigned long)&goldi_test_counter[1]);
    EXPECT_HAS(t, buf);
    snprintf(buf, sizeof buf, "  Locks held by T1: mutex 0x%lx (write), rwlock 0x%lx (read)\n",
             (unsigned long)mutex_addr, (unsigned long)rwlock_addr);
    EXPECT_HAS(t, buf);
    snprintf(buf, sizeof buf, "  Location is global 'goldi_test_counter' of size 16 at 0x%lx (test_report+0x",
             (unsigned long)goldi_test_counter);
    EXPECT_HAS(t, buf);
    EXPECT_HAS(t, "  Thread T2 (tid=4002, running) created by thread T1 at:\n    #0 report_target_b ");
    EXPECT_HAS(t, "  Thread T1 (tid=4001, finished) created by main thread at:\n    #0 report_target_c ");
    EXPECT_HAS(t, "  Ordering: test why: T2 not in lockset\n");
    snprintf(buf, sizeof buf, "test_report.c:%d in report_target_a\n==================\n", target_a_line);
    EXPECT_HAS(t, "SUMMARY: Goldilocks: data race /");
    EXPECT_HAS(t, buf);
    /* the block order of the format */
    const char *w = strstr(t, "  Write of"), *p = strstr(t, "  Previous read"),
               *l = strstr(t, "  Location is"), *th = strstr(t, "  Thread T2"),
               *o = strstr(t, "  Ordering:"), *s = strstr(t, "SUMMARY:");
    EXPECT(w && p && l && th && o && s && w < p && p < l && l < th && th < o && o < s);
    EXPECT(goldi_report_count() == 1);
}

CASE(report_text_variants) {
    struct goldi_report_config c = base_cfg();
    goldi_report_init(&c);
    capture_reset();
    /* atomic write vs free, on a heap block described by the hook */
    uint8_t *block = malloc(64);   /* a real heap block: in no module */
    heap_block = (uintptr_t)block;
    goldi_origin_t at = mk_origin(8, GOLDI_ORIGIN_WRITE | GOLDI_ORIGIN_ATOMIC, pc_a, 0, NULL, NULL);
    goldi_origin_t fr = mk_origin(64, GOLDI_ORIGIN_WRITE | GOLDI_ORIGIN_FREE, pc_b, 0, NULL, NULL);
    struct goldi_race r = mk_race(heap_block + 8, at, fr);
    r.cur_atomic = true;
    r.why[0] = 0;
    goldi_report_race(NULL, &r);
    const char *t = captured();
    printf("%s", t);
    char buf[256];
    snprintf(buf, sizeof buf, "  Atomic write of size 8 at 0x%lx by thread T2:", (unsigned long)heap_block + 8);
    EXPECT_HAS(t, buf);
    snprintf(buf, sizeof buf, "  Previous write of size 64 (free) at 0x%lx by thread T1:",
             (unsigned long)heap_block + 8);
    EXPECT_HAS(t, buf);
    snprintf(buf, sizeof buf, "  Location is heap block of size 64 at 0x%lx allocated by thread T1:\n"
             "    #0 report_target_b ", (unsigned long)heap_block);
    EXPECT_HAS(t, buf);
    EXPECT_HAS(t, "  Ordering: no happens-before order between the two accesses (test)\n");
    free(block);
    heap_block = 0;

    /* unknown location, unknown previous origin, thread without details */
    capture_reset();
    int local;
    r = mk_race((uintptr_t)&local, o_write_c, 0);
    r.prev_tid = 7;
    goldi_report_race(NULL, &r);
    t = captured();
    printf("%s", t);
    EXPECT_HAS(t, "  Location is unknown\n");
    EXPECT_HAS(t, "  Previous read of size 4 at ");
    EXPECT_HAS(t, "by thread T7:\n    [stack unavailable]\n  Locks held by T7: unknown\n");
    EXPECT_HAS(t, "  Thread T7 (no details available)\n");

    /* symbolize=0: raw addresses and module offsets only */
    c.symbolize = false;
    goldi_report_init(&c);
    capture_reset();
    r = mk_race((uintptr_t)&goldi_test_counter[0], o_write_a, o_read_b);
    goldi_report_race(NULL, &r);
    t = captured();
    printf("%s", t);
    snprintf(buf, sizeof buf, "    #0 0x%lx (test_report+0x", (unsigned long)pc_a - 1);
    EXPECT_HAS(t, buf);
    snprintf(buf, sizeof buf, "  Location is global at 0x%lx (test_report+0x", (unsigned long)goldi_test_counter);
    EXPECT_HAS(t, buf);
    EXPECT_HAS(t, "SUMMARY: Goldilocks: data race (test_report+0x");
    EXPECT(!strstr(t, "goldi_test_target"));
    c.symbolize = true;
    goldi_report_init(&c);
}

CASE(report_dedup) {
    struct goldi_report_config c = base_cfg();
    goldi_report_init(&c);
    capture_reset();
    struct goldi_race r1 = mk_race((uintptr_t)&goldi_test_counter[0], o_write_a, o_read_b);
    struct goldi_race r2 = mk_race((uintptr_t)&goldi_test_counter[3], o_write_a, o_read_b);
    /* (b, a): the same pair of source locations seen from the other side */
    goldi_origin_t w_b = mk_origin(4, GOLDI_ORIGIN_WRITE, pc_b, 0, NULL, NULL);
    struct goldi_race r3 = mk_race((uintptr_t)&goldi_test_counter[0], w_b, o_read_a);
    goldi_report_race(NULL, &r1);
    goldi_report_race(NULL, &r1);
    goldi_report_race(NULL, &r2);
    goldi_report_race(NULL, &r3);
    const char *t = captured();
    EXPECT(count_of(t, "WARNING: Goldilocks: data race") == 1);
    EXPECT(goldi_report_count() == 1);
    EXPECT(goldi_report_duplicates() == 3);
    /* a different pair is a new report */
    struct goldi_race r4 = mk_race((uintptr_t)&goldi_test_counter[0], o_write_c, o_read_b);
    goldi_report_race(NULL, &r4);
    t = captured();
    EXPECT(count_of(t, "WARNING: Goldilocks: data race") == 2);
    EXPECT(count_of(t, "==================\n") == 4);
    EXPECT(goldi_report_count() == 2);
    goldi_report_finish();
    t = captured();
    EXPECT_HAS(t, "==================\nGoldilocks: reported 2 data race(s)\n");
}

CASE(report_limit) {
    struct goldi_report_config c = base_cfg();
    c.report_limit = 1;
    goldi_report_init(&c);
    capture_reset();
    struct goldi_race r1 = mk_race((uintptr_t)&goldi_test_counter[0], o_write_a, o_read_b);
    struct goldi_race r2 = mk_race((uintptr_t)&goldi_test_counter[0], o_write_c, o_read_b);
    struct goldi_race r3 = mk_race((uintptr_t)&goldi_test_counter[0], o_write_c, o_read_a);
    goldi_report_race(NULL, &r1);
    goldi_report_race(NULL, &r2);
    goldi_report_race(NULL, &r3);
    const char *t = captured();
    EXPECT(count_of(t, "WARNING: Goldilocks: data race") == 1);
    EXPECT(goldi_report_count() == 3);
    goldi_report_finish();
    EXPECT_HAS(captured(), "Goldilocks: reported 3 data race(s)\n");
}

CASE(report_finish_silent) {
    struct goldi_report_config c = base_cfg();
    goldi_report_init(&c);
    capture_reset();
    goldi_report_finish();
    EXPECT(captured()[0] == 0);
    EXPECT(goldi_report_count() == 0);
}

CASE(report_halt) {
    struct goldi_report_config c = base_cfg();
    c.halt_on_error = true;
    c.exitcode = 42;
    goldi_report_init(&c);
    capture_reset();
    halt_code = -1;
    struct goldi_race r = mk_race((uintptr_t)&goldi_test_counter[0], o_write_a, o_read_b);
    if (setjmp(halt_jmp) == 0) {
        goldi_report_race(NULL, &r);
        EXPECT(!"halt hook not called");
    }
    EXPECT(halt_code == 42);
    EXPECT(count_of(captured(), "WARNING: Goldilocks: data race") == 1);
    /* after halting, nothing else is reported (the process is going down) */
    struct goldi_race r2 = mk_race((uintptr_t)&goldi_test_counter[0], o_write_c, o_read_b);
    halt_code = -1;
    if (setjmp(halt_jmp) == 0)
        goldi_report_race(NULL, &r2);
    EXPECT(halt_code == -1);
    EXPECT(count_of(captured(), "WARNING: Goldilocks: data race") == 1);
}

/* Our mirror of libdwfl's ABI must match the real headers when present. */
#if __has_include(<elfutils/libdwfl.h>)
#include <elfutils/libdwfl.h>
_Static_assert(sizeof(struct goldi_gelf_sym) == sizeof(GElf_Sym), "GElf_Sym size");
_Static_assert(offsetof(struct goldi_gelf_sym, st_info) == offsetof(GElf_Sym, st_info), "st_info");
_Static_assert(offsetof(struct goldi_gelf_sym, st_value) == offsetof(GElf_Sym, st_value), "st_value");
_Static_assert(offsetof(struct goldi_gelf_sym, st_size) == offsetof(GElf_Sym, st_size), "st_size");
_Static_assert(sizeof(struct goldi_dwfl_callbacks) == sizeof(Dwfl_Callbacks), "Dwfl_Callbacks size");
_Static_assert(offsetof(struct goldi_dwfl_callbacks, find_debuginfo) ==
                   offsetof(Dwfl_Callbacks, find_debuginfo), "find_debuginfo");
_Static_assert(offsetof(struct goldi_dwfl_callbacks, debuginfo_path) ==
                   offsetof(Dwfl_Callbacks, debuginfo_path), "debuginfo_path");
_Static_assert(GOLDI_STT_OBJECT == STT_OBJECT && GOLDI_STT_TLS == STT_TLS, "STT");
#endif

int main(void) {
    out_fd = mkstemp(out_path);
    if (out_fd < 0)
        return 2;
    unlink(out_path);
    pc_a = report_target_a();
    pc_b = report_target_b();
    pc_c = report_target_c();
    make_origins();
    RUN(report_symbolize_function);
    RUN(report_symbolize_data);
    RUN(report_symbolize_off);
    RUN(report_text);
    RUN(report_text_variants);
    RUN(report_dedup);
    RUN(report_limit);
    RUN(report_finish_silent);
    RUN(report_halt);
    return harness_summary();
}
