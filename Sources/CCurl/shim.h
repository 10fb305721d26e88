#include <curl/curl.h>

/* curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift cannot
   call: these typed forms cover the kinds of argument Lectern passes. */
static inline CURLcode lectern_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode lectern_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode lectern_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode lectern_curl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode lectern_curl_setopt_write_function(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, fn);
}
static inline CURLcode lectern_curl_setopt_read_function(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(handle, CURLOPT_READFUNCTION, fn);
}
static inline CURLcode lectern_curl_setopt_header_function(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, fn);
}
static inline CURLcode lectern_curl_setopt_opensocket_function(CURL *handle,
    curl_socket_t (*fn)(void *, curlsocktype, struct curl_sockaddr *)) {
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, fn);
}
static inline CURLcode lectern_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLMcode lectern_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}
