// Without options: every race reported once per pc pair, status 66.
// STRESS-EXIT: 66
// STRESS-REPORTS: 16-64
#include "racy_many.inc"
