#include "CCryptoShim.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct lectern_crypto crypto;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char failure[512] = "libcrypto was not loaded";

static void load(void) {
    /* The soname OpenSSL 3 installs (Debian's libssl3 package); already loaded, it is shared. */
    void *library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(failure, sizeof failure, "cannot load libcrypto: %s", dlerror());
        return;
    }
#define LECTERN_CRYPTO_LOOKUP(name) \
    crypto.name = (__typeof__(&name))dlsym(library, #name); \
    if (!crypto.name) { snprintf(failure, sizeof failure, "libcrypto.so.3 has no %s", #name); return; }
    LECTERN_CRYPTO_FUNCTIONS(LECTERN_CRYPTO_LOOKUP)
#undef LECTERN_CRYPTO_LOOKUP
    loaded = 1;
}

const struct lectern_crypto *lectern_crypto_load(void) {
    pthread_once(&once, load);
    return loaded ? &crypto : NULL;
}

const char *lectern_crypto_load_error(void) { return lectern_crypto_load() ? "" : failure; }
