/// The SQL migrations in this folder, compiled into the binary (SwiftPM `embedInCode`).
///
/// To add one: create `NNNN_name.sql` here and add a line below. A test checks that every
/// `.sql` file in this folder is listed, in order.
public enum Migrations {
    /// (file name, SQL) in the order they apply.
    public static let all: [(name: String, sql: String)] = [
        ("0001_initial.sql", String(decoding: PackageResources._001_initial_sql, as: UTF8.self)),
        ("0002_inbox_outbox.sql", String(decoding: PackageResources._002_inbox_outbox_sql, as: UTF8.self)),
        ("0003_trust_identity.sql", String(decoding: PackageResources._003_trust_identity_sql, as: UTF8.self)),
        ("0004_silence.sql", String(decoding: PackageResources._004_silence_sql, as: UTF8.self)),
        ("0005_digest_numbers.sql", String(decoding: PackageResources._005_digest_numbers_sql, as: UTF8.self)),
        ("0006_search.sql", String(decoding: PackageResources._006_search_sql, as: UTF8.self)),
        ("0007_search_state.sql", String(decoding: PackageResources._007_search_state_sql, as: UTF8.self)),
        ("0008_tombstones_and_limits.sql", String(decoding: PackageResources._008_tombstones_and_limits_sql, as: UTF8.self)),
        ("0009_signature_memory.sql", String(decoding: PackageResources._009_signature_memory_sql, as: UTF8.self)),
        ("0010_following.sql", String(decoding: PackageResources._010_following_sql, as: UTF8.self)),
        ("0011_webmention.sql", String(decoding: PackageResources._011_webmention_sql, as: UTF8.self)),
        ("0012_assertion_keys.sql", String(decoding: PackageResources._012_assertion_keys_sql, as: UTF8.self)),
        ("0013_held_inbound.sql", String(decoding: PackageResources._013_held_inbound_sql, as: UTF8.self)),
        ("0014_post_fingerprint_source.sql", String(decoding: PackageResources._014_post_fingerprint_source_sql, as: UTF8.self)),
        ("0015_newsletter.sql", String(decoding: PackageResources._015_newsletter_sql, as: UTF8.self)),
        ("0016_thread_backfill.sql", String(decoding: PackageResources._016_thread_backfill_sql, as: UTF8.self)),
        ("0017_unix_seconds.sql", String(decoding: PackageResources._017_unix_seconds_sql, as: UTF8.self)),
    ]
}
