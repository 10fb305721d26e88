import HTTPTypes
import NIOCore

/// A response's status line and fields as NIO's HTTP/1 encoder writes them (`name: value`, raw
/// names), for `RawStaticFastPath`: a file's heads are written once when the site loads
/// (`StaticFile.Heads`), so a request only adds `Date` and `Server`.
enum ResponseHeadBytes {
    static func statusLine(_ status: HTTPResponse.Status, into head: inout ByteBuffer) {
        head.writeString("HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n")
    }

    static func field(_ head: inout ByteBuffer, _ name: HTTPField.Name, _ value: String) {
        head.writeString(name.rawName)
        head.writeStaticString(": ")
        head.writeString(value)
        head.writeStaticString("\r\n")
    }

    /// Status line and `fields`; with `page`, the fields a post's page adds (its `Vary`, not its
    /// per-post `Link`, which is written after them per request).
    static func head(_ status: HTTPResponse.Status, _ fields: HTTPFields, asPage: Bool) -> ByteBuffer {
        var head = ByteBufferAllocator().buffer(capacity: 256)
        statusLine(status, into: &head)
        if asPage {
            PostNegotiation.PageFields(link: nil).forEachField(merging: fields, into: &head, field)
        } else {
            for item in fields { field(&head, item.name, item.value) }
        }
        return head
    }
}
