#define _GNU_SOURCE
#include <pthread.h>
#include <string.h>
#include "CThreadName.h"

int lectern_name_current_thread(const char *name) {
    char shortened[16];
    strncpy(shortened, name, sizeof shortened - 1);
    shortened[sizeof shortened - 1] = '\0';
#ifdef __APPLE__
    return pthread_setname_np(shortened);  /* Darwin names only the calling thread */
#else
    return pthread_setname_np(pthread_self(), shortened);
#endif
}
