#ifndef LECTERN_CCRYPTOSHIM_H
#define LECTERN_CCRYPTOSHIM_H
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/err.h>
#include <openssl/rand.h>
#include <openssl/bio.h>
#include <openssl/rsa.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/opensslv.h>
#include <openssl/encoder.h>
#include <openssl/decoder.h>

/* libcrypto is opened with dlopen on first use (see CCryptoShim.c), not linked: loading it bound
   3,377 symbols at every start of `lectern`, and a build, a status or a moderation command never
   signs or verifies. Swift calls OpenSSL through this table, whose fields are named and typed as
   OpenSSL's own functions. */
#define LECTERN_CRYPTO_FUNCTIONS(X) \
    X(EVP_Digest) X(EVP_DigestSign) X(EVP_DigestSignInit) X(EVP_DigestVerify) \
    X(EVP_DigestVerifyInit) X(EVP_MD_CTX_free) X(EVP_MD_CTX_new) X(EVP_MD_fetch) \
    X(EVP_PKEY_CTX_free) X(EVP_PKEY_CTX_new_from_name) X(EVP_PKEY_CTX_set_rsa_keygen_bits) \
    X(EVP_PKEY_CTX_set_rsa_padding) X(EVP_PKEY_CTX_set_rsa_pss_saltlen) X(EVP_PKEY_free) \
    X(EVP_PKEY_generate) X(EVP_PKEY_get_base_id) X(EVP_PKEY_get_bits) X(EVP_PKEY_get_bn_param) \
    X(EVP_PKEY_keygen_init) X(EVP_sha256) \
    X(BN_CTX_free) X(BN_CTX_new) X(BN_MONT_CTX_free) X(BN_MONT_CTX_new) X(BN_MONT_CTX_set) \
    X(BN_bin2bn) X(BN_bn2binpad) X(BN_copy) X(BN_free) X(BN_get_word) X(BN_is_odd) X(BN_mod_exp_mont) \
    X(BN_mod_mul_montgomery) X(BN_new) X(BN_num_bits) X(BN_set_word) X(BN_to_montgomery) X(BN_ucmp) \
    X(BIO_ctrl_pending) X(BIO_free) X(BIO_new) X(BIO_new_mem_buf) X(BIO_read) X(BIO_s_mem) \
    X(PEM_read_bio_PrivateKey) X(PEM_write_bio_PUBKEY) X(PEM_write_bio_PrivateKey) \
    X(PEM_write_bio_PrivateKey_traditional) \
    X(OSSL_DECODER_CTX_free) X(OSSL_DECODER_CTX_new_for_pkey) X(OSSL_DECODER_from_bio) \
    X(OSSL_ENCODER_CTX_free) X(OSSL_ENCODER_CTX_new_for_pkey) X(OSSL_ENCODER_to_bio) \
    X(ERR_clear_error) X(ERR_error_string_n) X(ERR_get_error) \
    X(RAND_bytes) \
    X(OpenSSL_version)

struct lectern_crypto {
#define LECTERN_CRYPTO_FIELD(name) __typeof__(&name) _Nonnull name;
    LECTERN_CRYPTO_FUNCTIONS(LECTERN_CRYPTO_FIELD)
#undef LECTERN_CRYPTO_FIELD
};

/* The table, loading libcrypto on the first call; NULL if it cannot be loaded, and then
   lectern_crypto_load_error() says why. */
const struct lectern_crypto *_Nullable lectern_crypto_load(void);
const char *_Nonnull lectern_crypto_load_error(void);

#endif
