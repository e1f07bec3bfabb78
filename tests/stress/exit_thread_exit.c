// Exit path "thread_exit" of exit_paths.inc (see there): exit status 3, no report.
// STRESS-ARGS: thread_exit
// STRESS-EXIT: 3
#include "exit_paths.inc"
