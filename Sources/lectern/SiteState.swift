import Foundation
import LecternCrypto
import LecternRuntime
import Site
import Storage

extension SiteOptions {
    /// Opens the site the way the server does (configuration, database, keys), so whatever a
    /// command changes is what a running server serves. Errors become `error: …`.
    func openBlog(_ options: Blog.Options = Blog.Options()) throws -> Blog {
        try Self.openBlog(at: root, options)
    }

    static func openBlog(at root: URL, _ options: Blog.Options) throws -> Blog {
        do {
            return try Blog.open(root: root, options: options)
        } catch let error as StoreError {
            throw CLIError(error.description)
        } catch let error as CryptoError {
            throw CLIError(error.description)
        }
    }
}
