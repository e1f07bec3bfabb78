/* GOLDI_OPTIONS parser and help, generated from the one table in options.inc.
 * Runs at init, possibly before libc is ready: no malloc, no stdio. */
#include "options.h"
#include "../base/alloc.h"
#include "../base/fmt.h"
#include "../engine/engine.h"

struct goldi_options goldi_opts;

enum opt_type { T_BOOL, T_INT, T_STR };

struct opt_desc {
    const char *name;
    enum opt_type type;
    long lo, hi;
    const char *def_str;    /* default as written in the table, for help */
    const char *help;
    size_t offset;          /* of the field in struct goldi_options */
};

#define GOLDI_OPTION(type, name, def, lo, hi, help) \
    { #name, T_##type, lo, hi, #def, help, offsetof(struct goldi_options, name) },
static const struct opt_desc table[] = {
#include "options.inc"
};
#undef GOLDI_OPTION

void goldi_options_defaults(struct goldi_options *out) {
#define GOLDI_OPTION(type, name, def, lo, hi, help) out->name = def;
#include "options.inc"
#undef GOLDI_OPTION
}

static bool is_sep(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ':';
}

static bool streq_n(const char *a, size_t n, const char *lit) {
    return goldi_strlen(lit) == n && goldi_strncmp(a, lit, n) == 0;
}

static bool parse_bool(const char *v, bool *out) {
    size_t n = goldi_strlen(v);
    if (streq_n(v, n, "1") || streq_n(v, n, "true") || streq_n(v, n, "yes")) {
        *out = true;
        return true;
    }
    if (streq_n(v, n, "0") || streq_n(v, n, "false") || streq_n(v, n, "no")) {
        *out = false;
        return true;
    }
    return false;
}

/* Decimal or 0x-hex, optional sign; rejects trailing junk and overflow. */
static bool parse_long(const char *v, long *out) {
    bool neg = false;
    if (*v == '-' || *v == '+')
        neg = *v++ == '-';
    unsigned base = 10;
    if (v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
        base = 16;
        v += 2;
    }
    if (!*v)
        return false;
    unsigned long acc = 0;
    for (; *v; v++) {
        unsigned d;
        if (*v >= '0' && *v <= '9')
            d = (unsigned)(*v - '0');
        else if (base == 16 && *v >= 'a' && *v <= 'f')
            d = (unsigned)(*v - 'a' + 10);
        else if (base == 16 && *v >= 'A' && *v <= 'F')
            d = (unsigned)(*v - 'A' + 10);
        else
            return false;
        if (acc > ((unsigned long)1 << 62) / base)
            return false;
        acc = acc * base + d;
    }
    *out = neg ? -(long)acc : (long)acc;
    return true;
}

/* engine=a,b: every name known, no duplicates, none empty. */
static bool check_engines(const char *v, char *err, size_t errlen) {
    const char *p = v;
    for (;;) {
        const char *e = p;
        while (*e && *e != ',')
            e++;
        size_t n = (size_t)(e - p);
        char one[64];   /* this element, NUL-terminated for messages (fmt has no %.*s) */
        size_t m = n < sizeof one - 1 ? n : sizeof one - 1;
        goldi_memcpy(one, p, m);
        one[m] = 0;
        if (n == 0 || !goldi_engine_find(p, n)) {
            char known[160];
            size_t k = 0;
            known[0] = 0;
            for (const struct goldi_engine_ops *const *o = goldi_engines; *o; o++)
                k += (size_t)goldi_snprintf(known + k, k < sizeof known ? sizeof known - k : 0,
                                            "%s%s", k ? ", " : "", (*o)->name);
            goldi_snprintf(err, errlen, "unknown engine '%s' in engine=%s (known: %s)", one, v,
                           known);
            return false;
        }
        for (const char *q = v; q < p;) {
            const char *qe = q;
            while (*qe != ',')
                qe++;
            if ((size_t)(qe - q) == n && goldi_strncmp(q, p, n) == 0) {
                goldi_snprintf(err, errlen, "engine '%s' listed twice in engine=%s", one, v);
                return false;
            }
            q = qe + 1;
        }
        if (!*e)
            return true;
        p = e + 1;
    }
}

static bool set_option(const struct opt_desc *d, const char *v, struct goldi_options *out,
                       char *err, size_t errlen) {
    char *field = (char *)out + d->offset;
    switch (d->type) {
    case T_BOOL: {
        bool b;
        if (!parse_bool(v, &b)) {
            goldi_snprintf(err, errlen, "bad value '%s' for boolean option '%s' (use 0/1)", v,
                           d->name);
            return false;
        }
        *(bool *)field = b;
        return true;
    }
    case T_INT: {
        long x;
        if (!parse_long(v, &x)) {
            goldi_snprintf(err, errlen, "bad value '%s' for integer option '%s'", v, d->name);
            return false;
        }
        if (x < d->lo || x > d->hi) {
            goldi_snprintf(err, errlen, "value %ld for option '%s' out of range [%ld, %ld]", x,
                           d->name, d->lo, d->hi);
            return false;
        }
        *(long *)field = x;
        return true;
    }
    case T_STR:
        if (goldi_strcmp(d->name, "engine") == 0 && !check_engines(v, err, errlen))
            return false;
        *(const char **)field = v;
        return true;
    }
    return false;
}

/* Tokens are name=value separated by spaces, tabs, newlines or ':' (not
 * ',': engine=goldilocks,vc has commas inside its value). A value may be
 * quoted with ' or " to contain separators. The string is copied once so
 * values can be NUL-terminated in place and outlive the caller's buffer. */
bool goldi_options_apply(const char *str, struct goldi_options *out, char *err, size_t errlen) {
    if (!str)
        return true;
    size_t len = goldi_strlen(str);
    char *buf = goldi_alloc(len + 1);
    goldi_memcpy(buf, str, len + 1);
    char *p = buf;
    for (;;) {
        while (*p && is_sep(*p))
            p++;
        if (!*p)
            return true;
        char *name = p;
        while (*p && *p != '=' && !is_sep(*p))
            p++;
        size_t nlen = (size_t)(p - name);
        if (*p != '=') {
            char save = *p;
            *p = 0;
            goldi_snprintf(err, errlen, "option '%s' has no value (expected %s=VALUE)", name, name);
            *p = save;
            return false;
        }
        *p++ = 0;
        char *val = p;
        if (*p == '"' || *p == '\'') {
            char q = *p++;
            val = p;
            while (*p && *p != q)
                p++;
            if (!*p) {
                goldi_snprintf(err, errlen, "unterminated quote in value of option '%s'", name);
                return false;
            }
        } else {
            while (*p && !is_sep(*p))
                p++;
        }
        bool more = *p != 0;
        *p = 0;
        const struct opt_desc *d = NULL;
        for (size_t i = 0; i < GOLDI_ARRAY_SIZE(table); i++)
            if (streq_n(name, nlen, table[i].name))
                d = &table[i];
        if (!d) {
            goldi_snprintf(err, errlen, "unknown option '%s'", name);
            return false;
        }
        if (!set_option(d, val, out, err, errlen))
            return false;
        if (!more)
            return true;
        p++;
    }
}

bool goldi_options_parse(const char *str, struct goldi_options *out, char *err, size_t errlen) {
    goldi_options_defaults(out);
    return goldi_options_apply(str, out, err, errlen);
}

static const char *type_name(enum opt_type t) {
    switch (t) {
    case T_BOOL: return "bool";
    case T_INT: return "int";
    case T_STR: return "string";
    }
    return "?";
}

void goldi_options_print_help(int fd) {
    goldi_fdprintf(fd, "Goldilocks runtime options (GOLDI_OPTIONS=\"name=value name=value ...\";\n"
                       "separators: space, tab, newline or ':'):\n");
    for (size_t i = 0; i < GOLDI_ARRAY_SIZE(table); i++) {
        const struct opt_desc *d = &table[i];
        if (d->type == T_INT)
            goldi_fdprintf(fd, "  %-14s %-6s default %s, range [%ld, %ld]\n", d->name,
                           type_name(d->type), d->def_str, d->lo, d->hi);
        else
            goldi_fdprintf(fd, "  %-14s %-6s default %s\n", d->name, type_name(d->type),
                           d->def_str);
        goldi_fdprintf(fd, "      %s\n", d->help);
    }
    goldi_fdprintf(fd, "Engines:\n");
    for (const struct goldi_engine_ops *const *o = goldi_engines; *o; o++)
        goldi_fdprintf(fd, "  %-14s %s\n", (*o)->name, (*o)->summary ? (*o)->summary : "");
}
