// Races reported, then the program leaves with _exit(0): like TSan, the
// runtime's _exit interceptor turns the status into exitcode (66) and
// prints the final count line (atexit handlers do not run on _exit).
// STRESS-EXIT: 66
// STRESS-REPORTS: 16-64
// STRESS-CHECK: Goldilocks: reported
#define RACY_UNDERSCORE_EXIT
#include "racy_many.inc"
