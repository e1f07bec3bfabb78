/* Runtime options, generated from options.inc (parser in options.c).
 * Parsed once at init from GOLDI_OPTIONS into a const struct. */
#ifndef GOLDI_OPTIONS_H
#define GOLDI_OPTIONS_H

#include "../base/base.h"

#define GOLDI_OPT_TYPE_BOOL bool
#define GOLDI_OPT_TYPE_INT long
#define GOLDI_OPT_TYPE_STR const char *

struct goldi_options {
#define GOLDI_OPTION(type, name, def, lo, hi, help) GOLDI_OPT_TYPE_##type name;
#include "options.inc"
#undef GOLDI_OPTION
};

extern struct goldi_options goldi_opts;

/* Parses str ("a=1 b=2" or "a=1:b=2") over the defaults into out. On error,
 * writes a one-line message into err and returns false. Strings in out point
 * into a private copy (valid for ever). */
bool goldi_options_parse(const char *str, struct goldi_options *out, char *err, size_t errlen);
/* Additions (rt helper): the table defaults, and parsing over whatever out
 * already holds, so sources can be layered (defaults < goldi_default_options()
 * < GOLDI_OPTIONS). The error text names the problem only ("unknown option
 * 'foo'"); the caller adds where the string came from. */
void goldi_options_defaults(struct goldi_options *out);
bool goldi_options_apply(const char *str, struct goldi_options *out, char *err, size_t errlen);
/* Writes the option table (name, type, default, help) to fd. */
void goldi_options_print_help(int fd);

#endif
