#ifndef LECTERN_CHEAP_H
#define LECTERN_CHEAP_H

/* glibc's malloc tuning, which Swift's Glibc module does not export (<malloc.h>). Linked into
   a process, this target also limits glibc to one arena per core before `main` (see CHeap.c).
   Each returns what glibc returned, or 0 where there is no glibc. */

/* mallopt(M_ARENA_MAX, arenas): at most that many heaps for all threads. */
int lectern_heap_limit_arenas(int arenas);

/* malloc_trim(0): give the kernel back the free pages of every arena. */
int lectern_heap_trim(void);

/* Bytes malloc has handed out and not had back (mallinfo2: uordblks + hblkhd): what the process
   holds, without the free pages and fragments that resident memory also counts. */
unsigned long long lectern_heap_in_use(void);

#endif
