#ifndef GYMCARD_CZLIB_SHIM_H
#define GYMCARD_CZLIB_SHIM_H
// zlib, for the tests only: some of the age project's test vectors are stored zlib-compressed.
#include <zlib.h>
#endif
