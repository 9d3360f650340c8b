import Foundation

/// Client-generated record identifiers (`activity_id`).
///
/// The ID is made once, when the record is made, and travels with it through the upload queue: the mobile API
/// upserts by activity ID (`PUT .../{record_type}/activity_id/{activity_id}.json`), so an upload retried after a
/// lost response updates the same record instead of creating a duplicate.
public enum ActivityID {
    /// A random UUID in lowercase, the form Android's `UUID.toString()` gives Validic's SDK.
    public static func generate() -> String {
        UUID().uuidString.lowercased()
    }
}
