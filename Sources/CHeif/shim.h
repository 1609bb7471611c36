#ifndef GYMCARD_CHEIF_SHIM_H
#define GYMCARD_CHEIF_SHIM_H
// Only the types and constants: the functions are looked up with dlsym (Sources/Imaging/HEIFLibrary.swift).
#include <libheif/heif.h>
#endif
