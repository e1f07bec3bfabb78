/* Program for the option tests (options_test.sh): optionally defines the
 * goldi_default_options() hook, then exits with status 0. */
#include <goldi/goldi.h>
#include <stdio.h>

#ifdef DEFAULTS
const char *goldi_default_options(void) { return DEFAULTS; }
#endif

int main(void) {
    puts("options_prog: main ran");
    return 0;
}
