/* Program for the option tests (options_test.sh): optionally defines the
 * goldi_default_options() hook, optionally (MAIN_READS) reads one variable
 * many times from main in one epoch (the same-epoch filter's case), then
 * exits with status 0. */
#include <goldi/goldi.h>
#include <stdio.h>

#ifdef DEFAULTS
const char *goldi_default_options(void) { return DEFAULTS; }
#endif

#ifdef MAIN_READS
volatile long shared_word;
#endif

int main(void) {
#ifdef MAIN_READS
    long sum = 0;
    for (int i = 0; i < MAIN_READS; i++)
        sum += shared_word;
    printf("options_prog: read %ld\n", sum);
#endif
    puts("options_prog: main ran");
    return 0;
}
