/* Writes docs/options.md from src/rt/options.inc (the one options table), to
 * stdout. Built as a host tool: target options_md regenerates the file, test
 * abi_options_doc fails when the committed copy is stale. */
#include <stdio.h>
#include <string.h>

static void row(const char *type, const char *name, const char *def, long lo, long hi,
                const char *help) {
    char range[64] = "";
    if (strcmp(type, "int") == 0)
        snprintf(range, sizeof range, "%ld .. %ld", lo, hi);
    printf("| `%s` | %s | `%s` | %s | %s |\n", name, type, def, range, help);
}

int main(void) {
    printf("# Runtime options\n\n"
           "<!-- Generated from src/rt/options.inc by tests/abi/gen_options_md.c:\n"
           "     run `ninja options_md` after editing the table; do not edit by hand. -->\n\n"
           "Set them in the environment variable `GOLDI_OPTIONS` as `name=value` pairs\n"
           "separated by spaces, tabs, newlines or `:` (not commas: `engine=goldilocks,vc`\n"
           "uses commas inside its value). A value may be quoted with `'` or `\"`.\n"
           "Booleans accept `0/1`, `true/false`, `yes/no`; integers are range-checked.\n"
           "An unknown option or a bad value stops the program with exit status 1 and\n"
           "one `goldi: error: ...` line. `GOLDI_OPTIONS=help=1` prints this table.\n\n"
           "Precedence (later wins): built-in defaults < `goldi_default_options()` defined\n"
           "by the program (see `include/goldi/goldi.h`) < `GOLDI_OPTIONS`.\n\n"
           "| Option | Type | Default | Range | Meaning |\n"
           "|---|---|---|---|---|\n");
#define BOOL "bool"
#define INT "int"
#define STR "string"
#define GOLDI_OPTION(type, name, def, lo, hi, help) row(type, #name, #def, lo, hi, help);
#include "rt/options.inc"
    return 0;
}
