/* goldi: dispatch to one subcommand. Each subcommand lives in its own file;
 * this file only maps names to entry points. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

struct subcommand {
    const char *name;
    int (*run)(int argc, char **argv);
};

static int run_cc(int argc, char **argv) { return goldi_cli_cc(argc, argv, false); }
static int run_cxx(int argc, char **argv) { return goldi_cli_cc(argc, argv, true); }

static const struct subcommand subcommands[] = {
    {"cc", run_cc},
    {"c++", run_cxx},
    {"cxx", run_cxx},
    {"help", goldi_cli_help},
    {"--help", goldi_cli_help},
    {"-h", goldi_cli_help},
    {"version", goldi_cli_version},
    {"--version", goldi_cli_version},
    {"options", goldi_cli_options},
    {"record", goldi_cli_record},
    {"analyze", goldi_cli_analyze},
    {"convert", goldi_cli_convert},
};

/* Invoked through a symlink named goldi-cc / goldi-c++ the program is the
 * compiler itself: handy where a build system wants CC to be one word. */
static const char *alias_subcommand(const char *argv0)
{
    const char *base = strrchr(argv0, '/');
    base = base ? base + 1 : argv0;
    if (strcmp(base, "goldi-cc") == 0 || strcmp(base, "goldi-gcc") == 0 ||
        strcmp(base, "goldi-clang") == 0)
        return "cc";
    if (strcmp(base, "goldi-c++") == 0 || strcmp(base, "goldi-g++") == 0 ||
        strcmp(base, "goldi-clang++") == 0 || strcmp(base, "goldi-cxx") == 0)
        return "c++";
    return NULL;
}

int main(int argc, char **argv)
{
    const char *alias = argc > 0 ? alias_subcommand(argv[0]) : NULL;
    const char *name;
    int sub_argc;
    char **sub_argv;

    if (alias) {
        name = alias;
        sub_argc = argc - 1;
        sub_argv = argv + 1;
    } else {
        if (argc < 2)
            return goldi_cli_help(0, argv + argc);
        name = argv[1];
        sub_argc = argc - 2;
        sub_argv = argv + 2;
    }
    for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
        if (strcmp(subcommands[i].name, name) == 0)
            return subcommands[i].run(sub_argc, sub_argv);
    fprintf(stderr, "goldi: unknown subcommand '%s' (try 'goldi help')\n", name);
    return GOLDI_CLI_USAGE;
}
