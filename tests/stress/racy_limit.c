// report_limit=3: three reports printed out of the races found; the status
// is still 66 and the final count line counts them all.
// STRESS-OPTIONS: report_limit=3
// STRESS-EXIT: 66
// STRESS-REPORTS: 3
// STRESS-CHECK: racy_many: finished
// STRESS-CHECK: Goldilocks: reported
#include "racy_many.inc"
