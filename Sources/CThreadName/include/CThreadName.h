#ifndef LECTERN_CTHREADNAME_H
#define LECTERN_CTHREADNAME_H

/* Names the calling thread; Linux keeps 15 bytes, longer names are cut. Swift's Glibc module does not export
   pthread_setname_np, and Foundation's Thread.name set before start() is dropped on Linux. */
int lectern_name_current_thread(const char *name);

#endif
