/* OpenSSL 3's libcrypto (Debian's libssl-dev; libssl itself is not used). */
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
