#ifndef GYMCARD_CZBAR_SHIM_H
#define GYMCARD_CZBAR_SHIM_H
#include <zbar.h>

// zbar_fourcc is a function-like macro; Y800 is 8-bit greyscale, the only format we hand to zbar.
static inline unsigned long gymcard_zbar_format_y800(void) { return zbar_fourcc('Y', '8', '0', '0'); }

#endif
