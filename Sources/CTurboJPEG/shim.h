#ifndef GYMCARD_CTURBOJPEG_SHIM_H
#define GYMCARD_CTURBOJPEG_SHIM_H
// TurboJPEG's tj* API reports errors through return values (no setjmp reaches Swift).
#include <turbojpeg.h>

// TJSCALED is a function-like macro and does not import into Swift.
static inline int gymcard_tj_scaled(int dimension, tjscalingfactor factor) {
    return TJSCALED(dimension, factor);
}

#endif
