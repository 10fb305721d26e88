/* The typed macros of curl/typecheck-gcc.h would expand the calls through the table below. */
#define CURL_DISABLE_TYPECHECK 1
#include "CCurlShim.h"
#include "CLazyLibrary.h"
#include <pthread.h>

/* libcurl is opened on first use, not linked: it pulls in some 30 libraries (GnuTLS, Kerberos,
   LDAP, SSH, RTMP, ...) whose loading and symbol binding was most of the start of every
   `lectern` command, and only the server and `publish`/`deliver` ever make a request. */
#define LECTERN_CURL_FUNCTIONS(X) \
    X(curl_global_init) X(curl_version) X(curl_easy_init) X(curl_easy_cleanup) X(curl_easy_setopt) \
    X(curl_easy_getinfo) X(curl_easy_strerror) X(curl_slist_append) X(curl_slist_free_all) \
    X(curl_multi_init) X(curl_multi_cleanup) X(curl_multi_add_handle) X(curl_multi_remove_handle) \
    X(curl_multi_perform) X(curl_multi_poll) X(curl_multi_wakeup) X(curl_multi_info_read) X(curl_multi_setopt)

static struct {
#define LECTERN_FIELD(name) __typeof__(&name) name;
    LECTERN_CURL_FUNCTIONS(LECTERN_FIELD)
#undef LECTERN_FIELD
} curl;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char failure[512] = "libcurl was not loaded";

#define LECTERN_SYMBOL(name) #name,
#define LECTERN_SLOT(name) (void **)&curl.name,
static const char *const symbols[] = { LECTERN_CURL_FUNCTIONS(LECTERN_SYMBOL) };
static void **const slots[] = { LECTERN_CURL_FUNCTIONS(LECTERN_SLOT) };
#undef LECTERN_SYMBOL
#undef LECTERN_SLOT

static void load(void) {
    loaded = lectern_library_open("libcurl.so.4", "libcurl", symbols, slots, sizeof symbols / sizeof *symbols,
                                  failure, sizeof failure);
}

int lectern_curl_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *lectern_curl_load_error(void) { return lectern_curl_load() ? NULL : failure; }

/* What takes no handle loads the library first; what takes one was given it by libcurl. */
CURLcode lectern_curl_global_init(long flags) { return lectern_curl_load() ? curl.curl_global_init(flags) : CURLE_FAILED_INIT; }
const char *lectern_curl_version(void) { return lectern_curl_load() ? curl.curl_version() : failure; }
CURL *lectern_curl_easy_init(void) { return lectern_curl_load() ? curl.curl_easy_init() : NULL; }
void lectern_curl_easy_cleanup(CURL *handle) { if (handle) curl.curl_easy_cleanup(handle); }
const char *lectern_curl_easy_strerror(CURLcode code) { return lectern_curl_load() ? curl.curl_easy_strerror(code) : failure; }
struct curl_slist *lectern_curl_slist_append(struct curl_slist *list, const char *text) {
    return lectern_curl_load() ? curl.curl_slist_append(list, text) : NULL;
}
void lectern_curl_slist_free_all(struct curl_slist *list) { if (list) curl.curl_slist_free_all(list); }
CURLM *lectern_curl_multi_init(void) { return lectern_curl_load() ? curl.curl_multi_init() : NULL; }
CURLMcode lectern_curl_multi_cleanup(CURLM *multi) { return multi ? curl.curl_multi_cleanup(multi) : CURLM_BAD_HANDLE; }
CURLMcode lectern_curl_multi_add_handle(CURLM *multi, CURL *handle) { return curl.curl_multi_add_handle(multi, handle); }
CURLMcode lectern_curl_multi_remove_handle(CURLM *multi, CURL *handle) { return curl.curl_multi_remove_handle(multi, handle); }
CURLMcode lectern_curl_multi_perform(CURLM *multi, int *running) { return curl.curl_multi_perform(multi, running); }
CURLMcode lectern_curl_multi_poll(CURLM *multi, int timeout) { return curl.curl_multi_poll(multi, NULL, 0, timeout, NULL); }
CURLMcode lectern_curl_multi_wakeup(CURLM *multi) { return curl.curl_multi_wakeup(multi); }
CURLMsg *lectern_curl_multi_info_read(CURLM *multi, int *left) { return curl.curl_multi_info_read(multi, left); }

CURLcode lectern_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl.curl_easy_setopt(handle, option, value);
}
CURLcode lectern_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl.curl_easy_setopt(handle, option, value);
}
CURLcode lectern_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl.curl_easy_setopt(handle, option, value);
}
CURLcode lectern_curl_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl.curl_easy_setopt(handle, option, value);
}
CURLcode lectern_curl_setopt_write_function(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *)) {
    return curl.curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, fn);
}
CURLcode lectern_curl_setopt_opensocket_function(CURL *handle,
    curl_socket_t (*fn)(void *, curlsocktype, struct curl_sockaddr *)) {
    return curl.curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, fn);
}
CURLcode lectern_curl_setopt_header_function(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *)) {
    return curl.curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, fn);
}
CURLcode lectern_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl.curl_easy_getinfo(handle, info, value);
}
CURLMcode lectern_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl.curl_multi_setopt(multi, option, value);
}

int lectern_curl_msg_is_done(const CURLMsg *message) { return message->msg == CURLMSG_DONE; }
CURLcode lectern_curl_msg_result(const CURLMsg *message) { return message->data.result; }
