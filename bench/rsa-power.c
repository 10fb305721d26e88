/* Times the RSA public power s^e mod n two ways, by turns in one process, on a fresh 2048-bit
   key: OpenSSL's BN_mod_exp_mont, and the chain RSAPublicVerifier runs (Montgomery products
   from s itself, then one product by R^(b+1) mod n). Prints microseconds per power and whether
   the two agree. bench/RESULTS.md, "Signature verification, fourteenth round".
     cc -O2 bench/rsa-power.c -lcrypto -o /tmp/rsa-power && /tmp/rsa-power */
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <stdio.h>
#include <time.h>

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(void) {
    EVP_PKEY *key = EVP_RSA_gen(2048);
    BIGNUM *n = NULL, *e = NULL;
    EVP_PKEY_get_bn_param(key, "n", &n);
    EVP_PKEY_get_bn_param(key, "e", &e);
    BN_CTX *ctx = BN_CTX_new();
    BN_MONT_CTX *mont = BN_MONT_CTX_new();
    BN_MONT_CTX_set(mont, n, ctx);
    BIGNUM *s = BN_new(), *expected = BN_new(), *x = BN_new();
    BN_rand_range(s, n);
    /* The chain leaves s^e * R^-b; the correction is R^(b+1) = (R mod n)^(b+1). */
    int bits = BN_num_bits(e);
    BIGNUM *b = BN_new(), *r = BN_new(), *correction = BN_new();
    BN_zero(b);
    for (int i = bits - 2; i >= 0; i--) {
        BN_lshift1(b, b);
        BN_add_word(b, BN_is_bit_set(e, i) ? 2 : 1);
    }
    BN_add_word(b, 1);
    BN_one(r);
    BN_to_montgomery(r, r, mont, ctx);
    BN_mod_exp_mont(correction, r, b, n, ctx, mont);
    for (int round = 0; round < 12; round++) {
        const int count = 20000;
        double start = seconds();
        for (int i = 0; i < count; i++) BN_mod_exp_mont(expected, s, e, n, ctx, mont);
        double library = (seconds() - start) / count * 1e6;
        start = seconds();
        for (int i = 0; i < count; i++) {
            BN_copy(x, s);
            for (int j = bits - 2; j >= 0; j--) {
                BN_mod_mul_montgomery(x, x, x, mont, ctx);
                if (BN_is_bit_set(e, j)) BN_mod_mul_montgomery(x, x, s, mont, ctx);
            }
            BN_mod_mul_montgomery(x, x, correction, mont, ctx);
        }
        double chain = (seconds() - start) / count * 1e6;
        printf("BN_mod_exp_mont %.2f us, chain %.2f us, equal: %s\n", library, chain, BN_cmp(expected, x) == 0 ? "yes" : "NO");
    }
    return 0;
}
