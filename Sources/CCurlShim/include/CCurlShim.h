#ifndef LECTERN_CCURLSHIM_H
#define LECTERN_CCURLSHIM_H
#include <curl/curl.h>

/* libcurl is opened with dlopen on first use (see CCurlShim.c), so Swift calls it only through
   these functions: each forwards to libcurl's own. */

/* 1 once libcurl is loaded (loading it if needed), else 0; then the reason, else NULL. */
int lectern_curl_load(void);
const char *lectern_curl_load_error(void);

CURLcode lectern_curl_global_init(long flags);
const char *lectern_curl_version(void);
CURL *lectern_curl_easy_init(void);
void lectern_curl_easy_cleanup(CURL *handle);
const char *lectern_curl_easy_strerror(CURLcode code);
struct curl_slist *lectern_curl_slist_append(struct curl_slist *list, const char *text);
void lectern_curl_slist_free_all(struct curl_slist *list);
CURLM *lectern_curl_multi_init(void);
CURLMcode lectern_curl_multi_cleanup(CURLM *multi);
CURLMcode lectern_curl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode lectern_curl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode lectern_curl_multi_perform(CURLM *multi, int *running);
/* curl_multi_poll without extra descriptors. */
CURLMcode lectern_curl_multi_poll(CURLM *multi, int timeout);
CURLMcode lectern_curl_multi_wakeup(CURLM *multi);
CURLMsg *lectern_curl_multi_info_read(CURLM *multi, int *left);

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
