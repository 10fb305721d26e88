/// An activity the blog sends, as a typed value: one generic shape for `Accept`, `Reject`,
/// `Create`, `Update`, `Delete` and `Move`, whose object is itself typed. The outbox reads its id
/// and type from here, not back out of JSON.
///
/// ```swift
/// let accept = Activity(id: urls.actor + "#accepts/1", type: .accept, actor: urls.actor, object: FollowReference(…))
/// try outbox.send(accept, to: [follower.inbox])
/// ```
public struct Activity<Object: ActivityObject>: Encodable, Sendable {
    public enum Kind: String, Encodable, Sendable { case accept = "Accept", reject = "Reject", create = "Create"
        case update = "Update", delete = "Delete", move = "Move", follow = "Follow", undo = "Undo" }

    public var context: JSONValue? = AS.objectContext
    public var id: String
    public var type: Kind
    public var actor: String
    public var published: String?
    public var to: [String]?
    public var cc: [String]?
    public var object: Object
    /// `Move`'s new account.
    public var target: String?
    /// `Accept` of a quote request: the authorization (FEP-044f).
    public var result: String?

    enum CodingKeys: String, CodingKey {
        case context = "@context"
        case id, type, actor, published, to, cc, object, target, result
    }

    public init(id: String, type: Kind, actor: String, published: String? = nil, to: [String]? = nil, cc: [String]? = nil,
                object: Object, target: String? = nil, result: String? = nil) {
        (self.id, self.type, self.actor, self.published, self.to, self.cc, self.object, self.target, self.result) =
            (id, type, actor, published, to, cc, object, target, result)
    }

    /// The id of what the activity is about (for the outbox's index of activities by object).
    public var objectID: String? { object.objectID }
}

/// What an outgoing activity can carry.
public protocol ActivityObject: Encodable, Sendable {
    var objectID: String? { get }
}

/// An id, when the object is given by reference (`Move`'s object, say).
extension String: ActivityObject {
    public var objectID: String? { self }
}

extension ArticleDocument: ActivityObject { public var objectID: String? { id } }
extension ActorDocument: ActivityObject { public var objectID: String? { id } }

/// The activity an `Accept` or `Reject` answers, embedded as Mastodon expects.
public struct ActivityReference: ActivityObject {
    public var id: String
    public var type: String
    public var actor: String
    public var object: String
    /// A quote request's quoting post.
    public var instrument: String?

    public init(id: String, type: String, actor: String, object: String, instrument: String? = nil) {
        (self.id, self.type, self.actor, self.object, self.instrument) = (id, type, actor, object, instrument)
    }

    public var objectID: String? { id }
}

/// What a `Delete` names: the id, typed `Tombstone`.
public struct TombstoneReference: ActivityObject {
    public var id: String
    public var type = "Tombstone"

    public init(id: String) { self.id = id }
    public var objectID: String? { id }
}
