#ifndef GYMCARD_CZXING_SHIM_H
#define GYMCARD_CZXING_SHIM_H
// Only the declarations of the zxing-cpp shim (Sources/GymcardZXing): Scanner loads libGymcardZXing.so with
// dlopen when a photo needs it (Sources/Scanner/ZXingLibrary.swift), so nothing is linked from here.
#include "../GymcardZXing/include/gymcard_zxing.h"
#endif
