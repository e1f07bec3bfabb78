/* A thread's first granule filter window is long (rt.h): a sweep over more
 * data than a short window marks (here 160 K granules, 1.25 MiB, past the
 * exact filter's 16 K slots), then read again pass after pass in the same
 * epoch. The long window marks the whole sweep before it is judged, so the
 * passes' reads are the granule filter's hits and none reaches the engine.
 * With a short first window (16 K misses) the window failed on the sweep's
 * first touches, the filter was skipped, and every read of the first passes
 * was a kept test in the engine. check_counter.sh checks the engine's kept
 * count. One thread, no synchronization: every count is fixed. */
#include "gfilter_sweep.h"

int main(void) { return gfilter_sweep("gfilter_first_window", 160 * 1024, 6); }
