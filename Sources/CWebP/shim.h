#ifndef GYMCARD_CWEBP_SHIM_H
#define GYMCARD_CWEBP_SHIM_H
// Only the types and constants: the functions are looked up with dlsym (Sources/Imaging/WebPCodec.swift).
#include <webp/decode.h>

// WEBP_DECODER_ABI_VERSION is a macro of an expression Swift does not import.
static const int gymcard_webp_decoder_abi_version = WEBP_DECODER_ABI_VERSION;

#endif
