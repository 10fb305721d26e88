// libpsl: the Public Suffix List (Debian's `publicsuffix` data, read by libpsl as curl does).
#include <libpsl.h>
