// halt_on_error=1 with 16 threads racing at once: the process stops after the
// first report (status 66 promptly, exactly one report printed, never the
// program's own end).
// STRESS-OPTIONS: halt_on_error=1
// STRESS-EXIT: 66
// STRESS-REPORTS: 1
// STRESS-ABSENT: racy_many: finished
#include "racy_many.inc"
