/* `goldi help` and `goldi --version`: static text only. */
#include "cli.h"

#include <stdio.h>

int goldi_cli_help(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fputs("usage: goldi <subcommand> [args...]\n"
          "\n"
          "Goldilocks: a precise dynamic data-race detector for C and C++.\n"
          "\n"
          "subcommands:\n"
          "  cc ARGS...    compile/link like cc, instrumented with -fsanitize=thread and\n"
          "                linked with the Goldilocks runtime (never libtsan)\n"
          "  c++ ARGS...   the same for C++ (alias: cxx)\n"
          "  record [-o FILE] -- PROG ARGS...\n"
          "                run PROG (built with goldi cc) and record its events into a\n"
          "                binary trace (default PROG.gtb)\n"
          "  analyze [--engine=LIST|all] [--format=F] FILE\n"
          "                replay a trace (binary, text .gtrace or RAPID STD) through\n"
          "                engines: race reports and a comparison table per engine\n"
          "  convert IN OUT  translate traces (binary, text, STD; OUT *.std = STD)\n"
          "  options       list the runtime options read from GOLDI_OPTIONS\n"
          "                (--markdown for a Markdown table)\n"
          "  help          this text\n"
          "  --version     print the version\n"
          "\n"
          "environment (goldi cc / c++):\n"
          "  GOLDI_CC, GOLDI_CXX   underlying compiler (default: cc, c++); gcc, clang,\n"
          "                        a full path, a versioned name or 'ccache gcc'\n"
          "  GOLDI_CC_FAMILY       gcc or clang, to skip detection via --version\n"
          "  GOLDI_RUNTIME_DIR     directory holding libgoldi_rt.a\n"
          "                        (default: <dir of goldi>/../lib)\n"
          "  GOLDI_CC_VERBOSE=1    print every command goldi runs\n"
          "\n"
          "environment (instrumented programs):\n"
          "  GOLDI_OPTIONS         e.g. \"halt_on_error=1 log_path=/tmp/races\"\n"
          "\n"
          "example:  CC=\"$PWD/build/bin/goldi cc\" make && ./prog\n",
          stdout);
    return 0;
}

int goldi_cli_version(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    printf("goldi %s\n", GOLDI_VERSION);
    return 0;
}
