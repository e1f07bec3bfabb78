/* `goldi convert IN OUT`: translates traces between formats. IN is binary,
 * text (.gtrace) or RAPID STD (detected, or --from=FMT); OUT is STD if it
 * ends in .std (or --to=std), else binary. The input is replayed through the
 * event pipe into one output sink (the binary writer or the STD exporter),
 * so every format goes through the same goldi_events. CLI code: libc. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/analyze.h"
#include "trace/std.h"
#include "trace/text.h"
#include "trace/writer.h"

char *goldi_cli_read_file(const char *path, size_t *len);

static int usage(void) {
    fprintf(stderr, "usage: goldi convert [--from=auto|binary|text|std] [--to=binary|std] [--partial] [--no-compress] IN OUT\n");
    return GOLDI_CLI_USAGE;
}

static bool ends_with(const char *s, const char *suf) {
    size_t n = strlen(s), k = strlen(suf);
    return n >= k && strcmp(s + n - k, suf) == 0;
}

int goldi_cli_convert(int argc, char **argv) {
    enum goldi_trace_format from = GOLDI_TRACE_FMT_AUTO, to = GOLDI_TRACE_FMT_AUTO;
    const char *in = NULL, *out = NULL;
    bool partial = false, store = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--from=", 7) == 0) {
            if (!goldi_trace_format_parse(a + 7, &from))
                return usage();
        } else if (strncmp(a, "--to=", 5) == 0) {
            if (!goldi_trace_format_parse(a + 5, &to) || to == GOLDI_TRACE_FMT_TEXT)
                return usage();
        } else if (strcmp(a, "--partial") == 0) {
            partial = true;
        } else if (strcmp(a, "--no-compress") == 0) {
            store = true;
        } else if (a[0] == '-' && a[1]) {
            return usage();
        } else if (!in) {
            in = a;
        } else if (!out) {
            out = a;
        } else {
            return usage();
        }
    }
    if (!in || !out)
        return usage();
    if (to == GOLDI_TRACE_FMT_AUTO)
        to = ends_with(out, ".std") ? GOLDI_TRACE_FMT_STD : GOLDI_TRACE_FMT_BINARY;
    size_t len;
    char *data = goldi_cli_read_file(in, &len);
    if (!data) {
        fprintf(stderr, "goldi convert: cannot read %s: %s\n", in, strerror(errno));
        return 1;
    }
    if (from == GOLDI_TRACE_FMT_AUTO)
        from = goldi_trace_detect(data, len);
    char err[512];
    int rc = 0;
    struct goldi_text_trace_result text_res;
    /* Open the input before creating the output: a bad input leaves no file. */
    struct goldi_trace *t = NULL;
    if (from == GOLDI_TRACE_FMT_BINARY) {
        struct goldi_trace_read_opts ro = {.allow_partial = partial};
        if ((rc = goldi_trace_open(data, len, &ro, &t, err, sizeof err))) {
            fprintf(stderr, "goldi convert: %s: %s\n", in, err);
            return 1;
        }
    }
    int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        fprintf(stderr, "goldi convert: cannot create %s: %s\n", out, strerror(errno));
        return 1;
    }
    if (to == GOLDI_TRACE_FMT_STD) {
        goldi_std_export_start(fd);
    } else {
        char tool[256];
        snprintf(tool, sizeof tool, "goldi convert from %s (%s)", goldi_trace_format_name(from), in);
        struct goldi_trace_writer_config wc = {.fd = fd, .tool = tool, .level = store ? -1 : 0};
        if (!goldi_trace_writer_start(&wc)) {
            fprintf(stderr, "goldi convert: cannot write %s\n", out);
            return 1;
        }
    }
    switch (from) {
    case GOLDI_TRACE_FMT_BINARY:
        rc = goldi_trace_replay(t, true, NULL, err, sizeof err);
        break;
    case GOLDI_TRACE_FMT_TEXT:
        rc = goldi_text_trace_run(data, len, &text_res, err, sizeof err);   /* with a result: pc = event index + 1 */
        break;
    case GOLDI_TRACE_FMT_STD:
        rc = goldi_std_run(data, len, NULL, err, sizeof err);
        break;
    case GOLDI_TRACE_FMT_AUTO:
        break;
    }
    if (rc) {
        fprintf(stderr, "goldi convert: %s: %s\n", in, err);
        close(fd);
        unlink(out);
        return 1;
    }
    if (to == GOLDI_TRACE_FMT_STD) {
        struct goldi_std_export_stats st;
        int wr = goldi_std_export_finish(&st);
        close(fd);
        if (wr) {
            fprintf(stderr, "goldi convert: writing %s failed\n", out);
            return 1;
        }
        uint64_t dropped = 0;
        for (unsigned k = 0; k < GOLDI_EV_COUNT; k++)
            dropped += st.dropped[k];
        fprintf(stderr, "goldi convert: wrote %s: %llu STD lines", out, (unsigned long long)st.lines);
        if (dropped) {
            fprintf(stderr, "; dropped events without an STD counterpart:");
            for (unsigned k = 0; k < GOLDI_EV_COUNT; k++)
                if (st.dropped[k])
                    fprintf(stderr, " %s=%llu", goldi_event_names[k], (unsigned long long)st.dropped[k]);
        }
        fprintf(stderr, "\n");
        return 0;
    }
    if (goldi_trace_writer_finish() < 0) {
        fprintf(stderr, "goldi convert: writing %s failed\n", out);
        return 1;
    }
    struct goldi_trace_writer_stats ws;
    goldi_trace_writer_stats(&ws);
    fprintf(stderr, "goldi convert: wrote %s: %llu events, %u threads, %llu bytes%s\n", out,
            (unsigned long long)ws.events, ws.threads, (unsigned long long)ws.bytes,
            ws.compressed ? " (zstd)" : store ? " (uncompressed)" : " (uncompressed: libzstd.so.1 not found)");
    return 0;
}
