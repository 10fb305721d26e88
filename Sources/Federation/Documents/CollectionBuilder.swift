import ActivityStreams
import Foundation

/// Paged `OrderedCollection`s: the collection names its first page; pages link `next`/`prev`.
struct CollectionBuilder {
    static let pageSize = 20

    /// The collection (page nil) or one page (1-based) of `items`.
    static func document(id: String, items: [JSONValue], page: Int?) throws -> Data {
        let pages = max(1, (items.count + pageSize - 1) / pageSize)
        guard let page else {
            return try ASEncoder.encode(OrderedCollectionDocument(
                id: id, totalItems: items.count, first: "\(id)?page=1", last: "\(id)?page=\(pages)"))
        }
        let slice = items.dropFirst((page - 1) * pageSize).prefix(pageSize)
        return try ASEncoder.encode(OrderedCollectionPageDocument(
            id: "\(id)?page=\(page)", partOf: id, totalItems: items.count,
            next: page < pages ? "\(id)?page=\(page + 1)" : nil, prev: page > 1 ? "\(id)?page=\(page - 1)" : nil,
            orderedItems: Array(slice)))
    }

    /// A small collection with its items inline (featured posts, following).
    static func inline(id: String, items: [JSONValue]) throws -> Data {
        try ASEncoder.encode(OrderedCollectionDocument(id: id, totalItems: items.count, orderedItems: items))
    }

    /// Only a count (followers when they are not public).
    static func countOnly(id: String, total: Int) throws -> Data {
        try ASEncoder.encode(OrderedCollectionDocument(id: id, totalItems: total))
    }
}
