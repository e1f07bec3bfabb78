// Exit path "return" of exit_paths.inc (see there): exit status 0, no report.
// STRESS-ARGS: return
// STRESS-EXIT: 0
#include "exit_paths.inc"
