/* The slice of elfutils' libdwfl ABI that symbolize.c uses, declared here so
 * the runtime builds without libdw-dev and never links libdw: the library is
 * dlopen'ed on first use. Layouts follow <elfutils/libdwfl.h> and <gelf.h>
 * (stable ELF64 ABI); tests/unit/test_report.c compares them with the real
 * headers when those are installed. */
#ifndef GOLDI_REPORT_DWFL_ABI_H
#define GOLDI_REPORT_DWFL_ABI_H

#include <stdint.h>

typedef struct Dwfl Dwfl;                  /* opaque libdwfl session */
typedef struct Dwfl_Module Dwfl_Module;    /* opaque loaded module */
typedef struct Dwfl_Line Dwfl_Line;        /* opaque line-table row */
typedef struct goldi_dwarf_die goldi_dwarf_die; /* Dwarf_Die: only used through pointers */
typedef struct Dwarf_Line_s Dwarf_Line;    /* opaque libdw line-table row */
typedef uint64_t goldi_dw_addr_t;          /* Dwarf_Addr / GElf_Addr / GElf_Off */

/* GElf_Sym == Elf64_Sym. */
struct goldi_gelf_sym {
    uint32_t st_name;
    unsigned char st_info;                 /* type in the low 4 bits */
    unsigned char st_other;
    uint16_t st_shndx;
    uint64_t st_value;
    uint64_t st_size;
};
#define GOLDI_STT_OBJECT 1
#define GOLDI_STT_FUNC   2
#define GOLDI_STT_COMMON 5
#define GOLDI_STT_TLS    6
#define GOLDI_STT_GNU_IFUNC 10
#define GOLDI_ST_TYPE(info) ((info) & 0xf)

typedef int (*goldi_dwfl_find_elf_fn)(Dwfl_Module *mod, void **userdata, const char *modname,
                                      goldi_dw_addr_t base, char **file_name, void **elfp);
typedef int (*goldi_dwfl_find_debuginfo_fn)(Dwfl_Module *mod, void **userdata,
                                            const char *modname, goldi_dw_addr_t base,
                                            const char *file_name, const char *debuglink_file,
                                            uint32_t debuglink_crc, char **debuginfo_file_name);

/* Dwfl_Callbacks. */
struct goldi_dwfl_callbacks {
    goldi_dwfl_find_elf_fn find_elf;
    goldi_dwfl_find_debuginfo_fn find_debuginfo;
    void *section_address;                 /* only for offline sessions: NULL */
    char **debuginfo_path;                 /* NULL *path = libdw's default search path */
};

/* The functions resolved with dlsym, one X-macro row each:
 * GOLDI_DWFL_FN(return type, name, parameter list). */
#define GOLDI_DWFL_FUNCTIONS(X)                                                               \
    X(Dwfl *, dwfl_begin, (const struct goldi_dwfl_callbacks *cb))                            \
    X(void, dwfl_report_begin, (Dwfl *dwfl))                                                  \
    X(int, dwfl_linux_proc_report, (Dwfl *dwfl, int pid))                                     \
    X(int, dwfl_report_end, (Dwfl *dwfl, void *removed, void *arg))                           \
    X(Dwfl_Module *, dwfl_addrmodule, (Dwfl *dwfl, goldi_dw_addr_t addr))                     \
    X(const char *, dwfl_module_addrinfo,                                                     \
      (Dwfl_Module *mod, goldi_dw_addr_t addr, goldi_dw_addr_t *offset,                       \
       struct goldi_gelf_sym *sym, uint32_t *shndxp, void **elfp, goldi_dw_addr_t *bias))     \
    X(Dwfl_Line *, dwfl_module_getsrc, (Dwfl_Module *mod, goldi_dw_addr_t addr))              \
    X(const char *, dwfl_lineinfo,                                                            \
      (Dwfl_Line *line, goldi_dw_addr_t *addr, int *linep, int *colp, uint64_t *mtime,        \
       uint64_t *length))                                                                     \
    X(goldi_dwarf_die *, dwfl_module_nextcu,                                                  \
      (Dwfl_Module *mod, goldi_dwarf_die *lastcu, goldi_dw_addr_t *bias))                     \
    X(int, dwarf_haspc, (goldi_dwarf_die *die, goldi_dw_addr_t pc))                           \
    X(Dwarf_Line *, dwarf_getsrc_die, (goldi_dwarf_die *cudie, goldi_dw_addr_t addr))         \
    X(const char *, dwarf_linesrc, (Dwarf_Line *line, uint64_t *mtime, uint64_t *length))     \
    X(int, dwarf_lineno, (Dwarf_Line *line, int *linep))

#endif
