/* Freestanding formatting and string helpers (see fmt.h). */
#include "fmt.h"
#include "../platform/platform.h"

struct out { char *buf; size_t n, len; };

static void put(struct out *o, char c) {
    if (o->len + 1 < o->n)
        o->buf[o->len] = c;
    o->len++;
}

static void put_num(struct out *o, unsigned long long v, unsigned base, bool neg, int width,
                    bool zero, bool left) {
    char tmp[24];
    int k = 0;
    do {
        tmp[k++] = "0123456789abcdef"[v % base];
        v /= base;
    } while (v);
    int len = k + (neg ? 1 : 0);
    if (!left && !zero)
        for (; width > len; width--)
            put(o, ' ');
    if (neg)
        put(o, '-');
    if (!left && zero)
        for (; width > len; width--)
            put(o, '0');
    while (k)
        put(o, tmp[--k]);
    if (left)
        for (; width > len; width--)
            put(o, ' ');
}

int goldi_vsnprintf(char *buf, size_t n, const char *fmt, va_list ap) {
    struct out o = { buf, n, 0 };
    for (const char *f = fmt; *f; f++) {
        if (*f != '%') {
            put(&o, *f);
            continue;
        }
        f++;
        bool zero = false, left = false;
        int width = 0, lng = 0;
        for (;; f++) {
            if (*f == '0')
                zero = true;
            else if (*f == '-')
                left = true;
            else
                break;
        }
        while (*f >= '0' && *f <= '9')
            width = width * 10 + (*f++ - '0');
        if (*f == '*') {
            width = va_arg(ap, int);
            f++;
        }
        while (*f == 'l')
            lng++, f++;
        if (*f == 'z')
            lng = 2, f++;
        switch (*f) {
        case 'd': {
            long long v = lng == 0 ? va_arg(ap, int) : lng == 1 ? va_arg(ap, long) : va_arg(ap, long long);
            put_num(&o, v < 0 ? -(unsigned long long)v : (unsigned long long)v, 10, v < 0, width, zero, left);
            break;
        }
        case 'u':
        case 'x': {
            unsigned long long v = lng == 0 ? va_arg(ap, unsigned) : lng == 1 ? va_arg(ap, unsigned long)
                                                                             : va_arg(ap, unsigned long long);
            put_num(&o, v, *f == 'x' ? 16 : 10, false, width, zero, left);
            break;
        }
        case 'p':
            put(&o, '0');
            put(&o, 'x');
            put_num(&o, (uintptr_t)va_arg(ap, void *), 16, false, width, zero, left);
            break;
        case 's': {
            const char *s = va_arg(ap, const char *);
            if (!s)
                s = "(null)";
            int len = (int)goldi_strlen(s);
            if (!left)
                for (; width > len; width--)
                    put(&o, ' ');
            while (*s)
                put(&o, *s++);
            if (left)
                for (; width > len; width--)
                    put(&o, ' ');
            break;
        }
        case 'c':
            put(&o, (char)va_arg(ap, int));
            break;
        case '%':
            put(&o, '%');
            break;
        default:
            put(&o, '%');
            if (*f)
                put(&o, *f);
            else
                f--;
        }
    }
    if (n)
        buf[o.len < n ? o.len : n - 1] = 0;
    return (int)o.len;
}

int goldi_snprintf(char *buf, size_t n, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int r = goldi_vsnprintf(buf, n, fmt, ap);
    va_end(ap);
    return r;
}

void goldi_fdprintf(int fd, const char *fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    int r = goldi_vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    size_t n = r < (int)sizeof buf ? (size_t)r : sizeof buf - 1;
    /* A truncated line (a huge option value quoted in an error) still ends
     * with its newline, so the next message starts on a line of its own. */
    size_t fl = goldi_strlen(fmt);
    if (r >= (int)sizeof buf && fl && fmt[fl - 1] == '\n')
        buf[n - 1] = '\n';
    goldi_os_write(fd, buf, n);
}

size_t goldi_strlen(const char *s) {
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

int goldi_strcmp(const char *a, const char *b) {
    while (*a && *a == *b)
        a++, b++;
    return (unsigned char)*a - (unsigned char)*b;
}

int goldi_strncmp(const char *a, const char *b, size_t n) {
    for (; n; n--, a++, b++) {
        if (*a != *b || !*a)
            return (unsigned char)*a - (unsigned char)*b;
    }
    return 0;
}

void *goldi_memcpy(void *d, const void *s, size_t n) {
    char *dd = d;
    const char *ss = s;
    while (n--)
        *dd++ = *ss++;
    return d;
}

void *goldi_memset(void *d, int c, size_t n) {
    char *dd = d;
    while (n--)
        *dd++ = (char)c;
    return d;
}
