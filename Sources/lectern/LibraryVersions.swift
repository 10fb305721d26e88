import OutboundHTTP
import LecternCrypto
import Site

/// Versions of the system libraries linked, as they report themselves at run time, for
/// `lectern version` and bug reports.
enum LibraryVersions {
    static var all: [(String, String)] {
        [
            ("openssl", OpenSSLLibrary.version),
            ("libcurl", FetchClient.version),
            ("cmark-gfm", MarkdownVersion.string),
        ]
    }
}
