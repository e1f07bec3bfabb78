// Exit path "thread__exit" of exit_paths.inc (see there): exit status 5, no report.
// STRESS-ARGS: thread__exit
// STRESS-EXIT: 5
#include "exit_paths.inc"
