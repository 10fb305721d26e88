#ifndef LECTERN_CTHREADNAME_H
#define LECTERN_CTHREADNAME_H

/* Names the calling thread; Linux keeps 15 bytes, longer names are cut. Swift's Glibc module does not export
   pthread_setname_np, and Foundation's Thread.name set before start() is dropped on Linux. */
int lectern_name_current_thread(const char *name);

/* Lowers the calling thread's scheduling priority (its nice value, on Linux per thread, to `niceness`;
   on Darwin the background QoS class): a thread for work that must never delay the event loops.
   Returns 0 on success. */
int lectern_lower_current_thread_priority(int niceness);

#endif
