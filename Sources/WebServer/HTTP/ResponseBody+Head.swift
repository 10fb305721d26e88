import Hummingbird

extension ResponseBody {
    /// A HEAD answer's body: no bytes, but the length the GET would send, which Hummingbird puts
    /// in `Content-Length` (an empty body would say 0).
    static func head(length: Int?) -> ResponseBody {
        ResponseBody(contentLength: length) { writer in try await writer.finish(nil) }
    }
}
