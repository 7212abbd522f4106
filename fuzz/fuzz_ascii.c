/* libFuzzer target: the tilenav ASCII loader, with the checks of fuzz_tiled.c. */
#define FUZZ_FORMAT TN_FORMAT_ASCII
#include "fuzz_tiled.c"
