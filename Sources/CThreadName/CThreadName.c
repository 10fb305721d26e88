#define _GNU_SOURCE
#include <pthread.h>
#include <string.h>
#ifdef __APPLE__
#include <pthread/qos.h>
#else
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif
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

int lectern_lower_current_thread_priority(int niceness) {
#ifdef __APPLE__
    (void)niceness;
    return pthread_set_qos_class_self_np(QOS_CLASS_BACKGROUND, 0);
#else
    /* Linux keeps a nice value per thread: PRIO_PROCESS with a thread id changes that thread only. */
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), niceness);
#endif
}
