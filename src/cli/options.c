/* `goldi options`: prints the runtime option table. The rows come from
 * src/rt/options.inc, the same table the runtime's parser is generated from,
 * so this listing cannot drift from what GOLDI_OPTIONS accepts. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

struct option_row {
    const char *type;
    const char *name;
    const char *def;   /* default as written in the table (strings quoted) */
    long lo, hi;       /* range, INT only */
    const char *help;
};

static const struct option_row rows[] = {
#define GOLDI_OPTION(type, name, def, lo, hi, help) {#type, #name, #def, lo, hi, help},
#include "../rt/options.inc"
#undef GOLDI_OPTION
};

static void print_text(void)
{
    printf("Runtime options, set as GOLDI_OPTIONS=\"name=value name=value\" (':' also separates):\n\n");
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        const struct option_row *r = &rows[i];
        printf("  %-14s %-4s default %s", r->name, r->type, r->def);
        if (strcmp(r->type, "INT") == 0)
            printf(" (%ld..%ld)", r->lo, r->hi);
        printf("\n      %s\n", r->help);
    }
}

static void print_markdown(void)
{
    printf("| option | type | default | meaning |\n");
    printf("| --- | --- | --- | --- |\n");
    for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
        const struct option_row *r = &rows[i];
        printf("| `%s` | %s | `%s` | %s", r->name, r->type, r->def, r->help);
        if (strcmp(r->type, "INT") == 0)
            printf(" Range %ld..%ld.", r->lo, r->hi);
        printf(" |\n");
    }
}

int goldi_cli_options(int argc, char **argv)
{
    if (argc == 0) {
        print_text();
        return 0;
    }
    if (argc == 1 && strcmp(argv[0], "--markdown") == 0) {
        print_markdown();
        return 0;
    }
    fprintf(stderr, "goldi options: unexpected argument '%s' (only --markdown)\n", argv[0]);
    return GOLDI_CLI_USAGE;
}
