/* _exit/_Exit interceptors. exit() reaches the runtime through its atexit
 * handler; _exit skips atexit handlers, so without this a program that
 * reported races and then left with _exit(0) would end with status 0 and no
 * final count line. As in TSan, the status becomes exitcode= when races were
 * reported (note: also in a fork child, which inherits the parent's count).
 * glibc's own exit path calls its internal _exit, not this one. */
#include "intercept.h"

#include <stdlib.h>
#include <unistd.h>

#include "../../platform/platform.h"

GOLDI_EXPORT void _exit(int status) {
    goldi_rt_finish(&status);   /* no-op before init; never returns early */
    goldi_os_exit(status);
}

GOLDI_EXPORT void _Exit(int status) {
    goldi_rt_finish(&status);
    goldi_os_exit(status);
}
