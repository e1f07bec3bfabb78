/* The goldi command line: one entry point per subcommand (main.c dispatches).
 * CLI code is an ordinary program (full libc); it never runs inside a user's
 * process, so none of the runtime's reentrancy rules apply here. */
#ifndef GOLDI_CLI_H
#define GOLDI_CLI_H

#include <stdbool.h>

#ifndef GOLDI_VERSION
#define GOLDI_VERSION "0.1.0"
#endif

/* Exit status for usage errors (unknown subcommand, bad flag). */
#define GOLDI_CLI_USAGE 2

/* `goldi cc ARGS...` / `goldi c++ ARGS...`: a compiler driver that
 * instruments with -fsanitize=thread and links our runtime instead of
 * libtsan. argv[0] is the first compiler argument (the subcommand name is
 * already stripped). Returns the compiler's exit status (or never returns
 * when it can exec the compiler directly). */
int goldi_cli_cc(int argc, char **argv, bool cxx);

/* `goldi help` and `goldi --version`. */
int goldi_cli_help(int argc, char **argv);
int goldi_cli_version(int argc, char **argv);

/* `goldi options [--markdown]`: the runtime option table (from
 * src/rt/options.inc, the same rows the runtime parses). */
int goldi_cli_options(int argc, char **argv);

/* Traces (src/trace/, docs/traces.md): `goldi record -o FILE -- PROG ARGS`,
 * `goldi analyze [--engine=LIST|all] FILE`, `goldi convert IN OUT`. */
int goldi_cli_record(int argc, char **argv);
int goldi_cli_analyze(int argc, char **argv);
int goldi_cli_convert(int argc, char **argv);

#endif
