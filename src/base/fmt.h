/* Minimal formatted output without malloc or stdio: the runtime prints
 * reports from inside arbitrary program states. */
#ifndef GOLDI_FMT_H
#define GOLDI_FMT_H

#include <stdarg.h>
#include "base.h"

/* snprintf subset: %s %d %u %ld %lu %lld %llu %zu %zd %x %lx %llx %zx %p %c %%,
 * with optional '0' flag, width and '-' flag. Always NUL-terminates;
 * returns the length that would have been written. */
int goldi_vsnprintf(char *buf, size_t n, const char *fmt, va_list ap);
int goldi_snprintf(char *buf, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Formats into a 1 KiB stack buffer and writes it to fd with raw write(2). */
void goldi_fdprintf(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

size_t goldi_strlen(const char *s);
int goldi_strcmp(const char *a, const char *b);
int goldi_strncmp(const char *a, const char *b, size_t n);
void *goldi_memcpy(void *d, const void *s, size_t n);
void *goldi_memset(void *d, int c, size_t n);

#endif
