#ifndef GYMCARD_CZXING_SHIM_H
#define GYMCARD_CZXING_SHIM_H
// Only the protocol of gymcard-zxing (Sources/gymcard-zxing), zxing-cpp's helper process: Scanner starts it
// when a photo needs it (Sources/Scanner/ZXingHelper.swift), so nothing is linked from here.
#include "../gymcard-zxing/include/gymcard_zxing.h"
#endif
