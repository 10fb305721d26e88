#ifndef LECTERN_CLAZYLIBRARY_H
#define LECTERN_CLAZYLIBRARY_H
#include <stddef.h>

/* For a system library opened on first use rather than linked (CCurlShim, CCryptoShim): opens
   `soname`, then looks each of `symbols` up into the matching function-pointer field in `slots`.
   1 on success; else 0, with the reason in `failure` ("cannot load libcurl: …", or
   "libcurl.so.4 has no curl_multi_poll"), `name` being the library's name for people. */
int lectern_library_open(const char *soname, const char *name, const char *const *symbols, void **const *slots,
                         size_t count, char *failure, size_t capacity);

#endif
