import CCurlShim
import Foundation
import LecternCrypto
import Site

/// Versions of the system libraries linked in, for `lectern version` and bug reports.
enum LibraryVersions {
    static var all: [(String, String)] {
        [
            ("openssl", { switch OpenSSLLibrary.library() { case .success(let version): version; case .failure(let error): "\(error)" } }()),
            ("libcurl", String(cString: lectern_curl_version())),
            ("cmark-gfm", MarkdownVersion.string),
        ]
    }
}
