#ifndef GYMCARD_CWEBP_SHIM_H
#define GYMCARD_CWEBP_SHIM_H
// libwebp, loaded with dlopen on the first WebP file (Sources/Imaging/WebPCodec.swift): its functions are
// listed once, here; the table's members take their types from webp/decode.h (docs/ARCHITECTURE.md §17).
// WebPGetFeatures and WebPInitDecoderConfig are inline functions of the header over the two *Internal ones.
#include <webp/decode.h>
#include "../DynamicLoading/include/FunctionTable.h"

#define GYMCARD_WEBP_FUNCTIONS(X) \
    X(WebPGetFeaturesInternal) X(WebPInitDecoderConfigInternal) X(WebPDecode) X(WebPFreeDecBuffer)

GYMCARD_FUNCTION_TABLE(webp, GYMCARD_WEBP_FUNCTIONS)

// WEBP_DECODER_ABI_VERSION is a macro of an expression Swift does not import.
static const int gymcard_webp_decoder_abi_version = WEBP_DECODER_ABI_VERSION;

#endif
