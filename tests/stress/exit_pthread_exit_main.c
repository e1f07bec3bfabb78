// Exit path "pthread_exit_main" of exit_paths.inc (see there): exit status 0, no report.
// STRESS-ARGS: pthread_exit_main
// STRESS-EXIT: 0
#include "exit_paths.inc"
