import CCurlShim
import COpenSSL
import Foundation
import Site

/// Versions of the system libraries linked in, for `lectern version` and bug reports.
enum LibraryVersions {
    static var all: [(String, String)] {
        [
            ("openssl", String(cString: OpenSSL_version(OPENSSL_VERSION_STRING))),
            ("libcurl", String(cString: lectern_curl_version())),
            ("cmark-gfm", MarkdownVersion.string),
        ]
    }
}
