// Contended mutexes with the interceptor's spin on (the default): exact
// counts, no report, and some contended acquisitions were taken while
// spinning (print_stats' "mutex_spins_taken" is not 0; this suite's
// machines have two CPUs: on one, nothing spins and this check fails).
// STRESS-OPTIONS: print_stats=1
// STRESS-CHECK: mutex_spin: counter 400000 taken 20000 handed 20000
// STRESS-CHECK: runtime mutex_spins_taken
// STRESS-ABSENT: runtime mutex_spins_taken 0
#include "mutex_spin.inc"
