// The same with mutex_spin=0: every contended lock sleeps at once, as
// without the detector, and nothing spins.
// STRESS-OPTIONS: print_stats=1 mutex_spin=0
// STRESS-CHECK: mutex_spin: counter 400002 taken 20000 handed 20000
// STRESS-CHECK: runtime mutex_spins_taken 0
// STRESS-CHECK: runtime mutex_spins_slept 0
#include "mutex_spin.inc"
