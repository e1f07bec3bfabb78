/* fires: proves that each access-producing interceptor emits its events.
 * For every function, main first writes a buffer with plain stores; then a
 * worker (ordered after it only by an invisible barrier, so there is no
 * happens-before) calls the function on that buffer: its READ/WRITE/FREE
 * range event must race with main's write. One report per call site.
 * A last block checks the other direction: memory freed by one thread and
 * re-allocated by another starts a fresh lifetime (ALLOC), so that reuse
 * must NOT be reported.
 * Compile with -fno-builtin: otherwise GCC expands the small constant-size
 * memset/strcpy calls into uninstrumented stores and no interceptor runs.
 * EXPECT-RACES: 27 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>

#include "../races/invisible_barrier.h"

#define N 32
static char bufs[N][64];
static char *heap[4];
static char dst[N][64];
static ib_flag written, reused_freed, reused_done;
static volatile long sink;

static void *worker(void *arg) {
    (void)arg;
    ib_wait(&written);
    int i = 0;
    /* each call reads or writes bufs[i] (written by main): one race each */
    memcpy(dst[0], bufs[i++], 8);
    memmove(dst[1], bufs[i++], 8);
    mempcpy(dst[2], bufs[i++], 8);
    bcopy(bufs[i++], dst[3], 8);
    memset(bufs[i++], 0, 8);
    bzero(bufs[i++], 8);
    explicit_bzero(bufs[i++], 8);
    sink += memcmp(bufs[i++], "abcdefg", 8);
    sink += (long)memchr(bufs[i++], 'z', 8);
    sink += (long)strlen(bufs[i++]);
    sink += (long)strnlen(bufs[i++], 60);
    strcpy(dst[4], bufs[i++]);
    stpcpy(dst[5], bufs[i++]);
    strncpy(dst[6], bufs[i++], 8);
    strcat(dst[7], bufs[i++]);
    strncat(dst[8], bufs[i++], 4);
    sink += strcmp(bufs[i++], "abcdefg");
    sink += strncmp(bufs[i++], "abcdefg", 5);
    sink += (long)strchr(bufs[i++], 'z');
    sink += (long)strrchr(bufs[i++], 'a');
    sink += (long)strstr(bufs[i++], "cde");
    free(strdup(bufs[i++]));
    free(strndup(bufs[i++], 3));
    strcpy(bufs[i++], "xy");   /* destination side of strcpy */
    /* heap: free and realloc of a block main wrote are writes of it */
    free(heap[0]);
    heap[1] = realloc(heap[1], 4096);
    free(wcsdup((const wchar_t *)heap[2]));
    return NULL;
}

static void *reuser(void *arg) {
    (void)arg;
    ib_wait(&reused_freed);
    /* likely the very block main freed: a new lifetime, no race */
    char *p = malloc(48);
    memset(p, 1, 48);
    p[0] = 2;
    free(p);
    ib_set(&reused_done);
    return NULL;
}

int main(void) {
    for (int i = 0; i < N; i++)
        strcpy(bufs[i], "abcdefg");
    for (int i = 0; i < 3; i++) {
        heap[i] = malloc(64);
        for (int k = 0; k < 64; k++)
            heap[i][k] = 0;
    }
    char *blocks[3] = { heap[0], heap[1], heap[2] };   /* heap[] itself is the worker's now */
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    for (int i = 0; i < N; i++)
        for (int k = 0; k < 8; k++)
            bufs[i][k] = 'a' + k;   /* the plain writes the worker races with */
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 16; k++)
            blocks[i][k] = 1;
    ib_set(&written);
    pthread_join(t, NULL);
    free(heap[1]);

    pthread_t r;
    pthread_create(&r, NULL, reuser, NULL);
    char *p = malloc(48);
    memset(p, 3, 48);
    free(p);
    ib_set(&reused_freed);
    ib_wait(&reused_done);
    pthread_join(r, NULL);
    printf("fires: done\n");
    return 0;
}
