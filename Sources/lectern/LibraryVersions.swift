import CCurlShim
import Foundation
import LecternCrypto
import Site

/// Versions of the system libraries used (linked, or opened on first use), for `lectern version` and bug reports.
enum LibraryVersions {
    static var all: [(String, String)] {
        [
            ("openssl", { switch OpenSSLLibrary.library() { case .success(let version): version; case .failure(let error): "\(error)" } }()),
            ("libcurl", String(cString: lectern_curl_version())),
            ("cmark-gfm", MarkdownVersion.string),
        ]
    }
}
