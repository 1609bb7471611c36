#ifndef GYMCARD_CZINT_SHIM_H
#define GYMCARD_CZINT_SHIM_H
// Only the types and constants: the functions are looked up with dlsym (Sources/Symbols/ZintLibrary.swift).
#include <zint.h>
#endif
