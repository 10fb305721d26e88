#include "CCryptoShim.h"
#include "CLazyLibrary.h"
#include <pthread.h>

static struct lectern_crypto crypto;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char failure[512] = "libcrypto was not loaded";

#define LECTERN_CRYPTO_SYMBOL(name) #name,
#define LECTERN_CRYPTO_SLOT(name) (void **)&crypto.name,
static const char *const symbols[] = { LECTERN_CRYPTO_FUNCTIONS(LECTERN_CRYPTO_SYMBOL) };
static void **const slots[] = { LECTERN_CRYPTO_FUNCTIONS(LECTERN_CRYPTO_SLOT) };
#undef LECTERN_CRYPTO_SYMBOL
#undef LECTERN_CRYPTO_SLOT

/* The soname OpenSSL 3 installs (Debian's libssl3 package); already loaded, it is shared. */
static void load(void) {
    loaded = lectern_library_open("libcrypto.so.3", "libcrypto", symbols, slots, sizeof symbols / sizeof *symbols,
                                  failure, sizeof failure);
}

const struct lectern_crypto *lectern_crypto_load(void) {
    pthread_once(&once, load);
    return loaded ? &crypto : NULL;
}

const char *lectern_crypto_load_error(void) { return lectern_crypto_load() ? "" : failure; }
