#ifndef GYMCARD_CLIBCRYPTO_SHIM_H
#define GYMCARD_CLIBCRYPTO_SHIM_H
// Only the constants (EVP_CTRL_AEAD_*, EVP_MAX_MD_SIZE): the functions are looked up with dlsym in
// libcrypto.so.3 (Sources/CardVault/LibCrypto.swift), so nothing is linked.
#include <openssl/evp.h>
#endif
