#include "CHeap.h"
#include <stdlib.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

int lectern_heap_limit_arenas(int arenas) {
#if defined(__GLIBC__)
    return mallopt(M_ARENA_MAX, arenas);
#else
    (void)arenas;
    return 0;
#endif
}

int lectern_heap_trim(void) {
#if defined(__GLIBC__)
    return malloc_trim(0);
#else
    return 0;
#endif
}

unsigned long long lectern_heap_in_use(void) {
#if defined(__GLIBC__)
    struct mallinfo2 info = mallinfo2();
    return (unsigned long long)info.uordblks + (unsigned long long)info.hblkhd;
#else
    return 0;
#endif
}

/* Before main, and so before any thread: glibc fixes its arena limit the first time a thread
   needs an arena of its own, which in a Swift process happens before `main` could call mallopt.
   One arena per core instead of glibc's eight (a serving process's freed memory stayed resident,
   scattered over them: `make soak`, docs/reliability.md). MALLOC_ARENA_MAX, if set, is left to rule. */
__attribute__((constructor)) static void lectern_heap_arenas_per_core(void) {
#if defined(__GLIBC__)
    if (getenv("MALLOC_ARENA_MAX") != NULL) return;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    lectern_heap_limit_arenas(cores < 2 ? 2 : (int)cores);
#endif
}
