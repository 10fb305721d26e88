#define _GNU_SOURCE
#include <pthread.h>
#include <string.h>
#include "CThreadName.h"

int lectern_name_current_thread(const char *name) {
    char shortened[16];
    strncpy(shortened, name, sizeof shortened - 1);
    shortened[sizeof shortened - 1] = '\0';
    return pthread_setname_np(pthread_self(), shortened);
}
