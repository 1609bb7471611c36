#ifndef GYMCARD_CZIP_SHIM_H
#define GYMCARD_CZIP_SHIM_H
// Only the types and constants: the functions are looked up with dlsym (Sources/Catima/LibZip.swift).
#include <zip.h>
#endif
