// exitcode=0: races reported, the program's own status (0) stands.
// STRESS-OPTIONS: exitcode=0
// STRESS-EXIT: 0
// STRESS-REPORTS: 16-64
// STRESS-CHECK: racy_many: finished
#include "racy_many.inc"
