import ActivityStreams
import Foundation

/// Paged `OrderedCollection`s: the collection names its first page; pages link `next`/`prev`.
package struct CollectionBuilder {
    package static let pageSize = 20

    /// The collection (page nil) or one page (1-based) of `items`.
    package static func document(id: String, items: [JSONValue], page: Int?, attributedTo: String? = nil) throws -> Data {
        guard let page else { return try collection(id: id, total: items.count, attributedTo: attributedTo) }
        return try self.page(page, of: id, total: items.count,
                             items: Array(items.dropFirst((page - 1) * pageSize).prefix(pageSize)))
    }

    /// The collection document, linking its first and last pages.
    package static func collection(id: String, total: Int, attributedTo: String? = nil) throws -> Data {
        var collection = OrderedCollectionDocument(id: id, totalItems: total, first: "\(id)?page=1", last: "\(id)?page=\(pageCount(total))")
        collection.attributedTo = attributedTo
        return try ASEncoder.encode(collection)
    }

    /// One page, for callers that fetch only that page's items (followers, from the store).
    package static func page(_ page: Int, of id: String, total: Int, items: [JSONValue]) throws -> Data {
        try ASEncoder.encode(OrderedCollectionPageDocument(
            id: "\(id)?page=\(page)", partOf: id, totalItems: total,
            next: page < pageCount(total) ? "\(id)?page=\(page + 1)" : nil,
            prev: page > 1 ? "\(id)?page=\(page - 1)" : nil, orderedItems: items))
    }

    static func pageCount(_ total: Int) -> Int { max(1, (total + pageSize - 1) / pageSize) }

    /// A small collection with its items inline (featured posts, following).
    package static func inline(id: String, items: [JSONValue]) throws -> Data {
        try ASEncoder.encode(OrderedCollectionDocument(id: id, totalItems: items.count, orderedItems: items))
    }

    /// Only a count (followers when they are not public).
    package static func countOnly(id: String, total: Int) throws -> Data {
        try ASEncoder.encode(OrderedCollectionDocument(id: id, totalItems: total))
    }
}
