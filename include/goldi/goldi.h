/* Goldilocks public API for programs under the detector. Small on purpose:
 * everything here works (or compiles away) whether or not the program is
 * linked with the Goldilocks runtime. */
#ifndef GOLDI_GOLDI_H
#define GOLDI_GOLDI_H

#define GOLDI_VERSION_MAJOR 0
#define GOLDI_VERSION_MINOR 1
#define GOLDI_VERSION_PATCH 0
#define GOLDI_VERSION_STRING "0.1.0"

#ifdef __cplusplus
extern "C" {
#endif

/* Optional hook: define this function in your program to supply default
 * runtime options ("engine=vc halt_on_error=1"), in GOLDI_OPTIONS syntax.
 * Precedence: built-in defaults < goldi_default_options() < GOLDI_OPTIONS.
 * It runs very early (possibly before main and before libc is fully set up):
 * return a string literal, do not allocate, lock or print. */
const char *goldi_default_options(void);

#ifdef __cplusplus
}
#endif

#endif
