#include "CLazyLibrary.h"
#include <dlfcn.h>
#include <stdio.h>

int lectern_library_open(const char *soname, const char *name, const char *const *symbols, void **const *slots,
                         size_t count, char *failure, size_t capacity) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(failure, capacity, "cannot load %s: %s", name, dlerror());
        return 0;
    }
    for (size_t index = 0; index < count; index++) {
        /* POSIX's way to store dlsym's answer in a function pointer. */
        *slots[index] = dlsym(library, symbols[index]);
        if (!*slots[index]) {
            snprintf(failure, capacity, "%s has no %s", soname, symbols[index]);
            return 0;
        }
    }
    return 1;
}
