#ifndef LECTERN_CCURLSHIM_H
#define LECTERN_CCURLSHIM_H
#include <curl/curl.h>

/* curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call.
   These typed wrappers cover the argument kinds libcurl uses. */
CURLcode lectern_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode lectern_curl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode lectern_curl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode lectern_curl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value);
CURLcode lectern_curl_setopt_write_function(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *));
CURLcode lectern_curl_setopt_opensocket_function(CURL *handle,
    curl_socket_t (*fn)(void *, curlsocktype, struct curl_sockaddr *));
CURLcode lectern_curl_setopt_header_function(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *));
CURLcode lectern_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);

CURLMcode lectern_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
int lectern_curl_msg_is_done(const CURLMsg *message);
CURLcode lectern_curl_msg_result(const CURLMsg *message);

#endif
