#ifndef GYMCARD_CLIBCRYPTO_SHIM_H
#define GYMCARD_CLIBCRYPTO_SHIM_H
// libcrypto (OpenSSL 3), loaded with dlopen when a passphrase is first used (Sources/CardVault/LibCrypto.swift):
// its functions are listed once, here; the table's members take their types from the OpenSSL headers
// (docs/ARCHITECTURE.md §17).
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/crypto.h>
#include "../DynamicLoading/include/FunctionTable.h"

#define GYMCARD_LIBCRYPTO_FUNCTIONS(X) \
    X(EVP_CIPHER_CTX_new) X(EVP_CIPHER_CTX_free) X(EVP_chacha20_poly1305) X(EVP_EncryptInit_ex) \
    X(EVP_EncryptUpdate) X(EVP_EncryptFinal_ex) X(EVP_DecryptInit_ex) X(EVP_DecryptUpdate) \
    X(EVP_DecryptFinal_ex) X(EVP_CIPHER_CTX_ctrl) X(EVP_PBE_scrypt) X(HMAC) X(EVP_sha256) X(EVP_Digest) \
    X(CRYPTO_memcmp)

GYMCARD_FUNCTION_TABLE(libcrypto, GYMCARD_LIBCRYPTO_FUNCTIONS)

#endif
