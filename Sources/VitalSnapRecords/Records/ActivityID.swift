import Foundation

/// Client-generated record identifiers (`activity_id`).
///
/// The ID is made once, when the record is made, and travels with it through the upload queue: the mobile API
/// upserts by activity ID (`PUT .../{record_type}/activity_id/{activity_id}.json`), so an upload retried after a
/// lost response updates the same record instead of creating a duplicate.
public enum ActivityID {
    /// The namespace of VitalSnap's derived IDs: a random (version 4) UUID chosen once for this purpose and never
    /// to be changed, since every derived ID depends on it. Another program deriving IDs from the same names in
    /// its own namespace gets other IDs, so the two never collide by accident.
    public static let vitalSnapNamespace = UUID(uuidString: "c2a0c1f1-620a-4ac7-8b5a-aac90f39c6ac")!

    /// The version number of name-based UUIDs made with SHA-1 (RFC 4122, 4.1.3), in the high nibble of byte 6.
    static let nameBasedSHA1Version: UInt8 = 0x50
    /// The RFC 4122 variant (binary 10), in the two high bits of byte 8.
    static let rfc4122Variant: UInt8 = 0x80
    /// Byte 6: the bits kept from the hash (the low nibble; the version takes the high one).
    private static let versionByteHashBits: UInt8 = 0x0F
    /// Byte 8: the bits kept from the hash (the low six; the variant takes the top two).
    private static let variantByteHashBits: UInt8 = 0x3F
    /// Bytes of a UUID.
    static let uuidSize = 16
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A random UUID in lowercase, the form Android's `UUID.toString()` gives Validic's SDK.
    public static func generate() -> String {
        UUID().uuidString.lowercased()
    }

    /// The ID of a record that can be read more than once (a reading stored on a Bluetooth meter, fetched again on
    /// the next connection): made from `name`, a text that identifies the reading, so the same reading always
    /// gets the same ID and the server keeps it once. A version 5 UUID in VitalSnap's namespace, lowercase.
    public static func derived(from name: String) -> String {
        nameBased(namespace: vitalSnapNamespace, name: name)
    }

    /// The name-based UUID, version 5 (RFC 4122, 4.3: SHA-1 of the namespace's 16 bytes followed by the name's
    /// UTF-8 bytes, the first 16 bytes of the hash with the version and variant set), lowercase.
    public static func nameBased(namespace: UUID, name: String) -> String {
        var derivation = Derivation(namespace: namespace, separator: "")
        derivation.append(name)
        return derivation.id()
    }

    /// `derived(from: parts.joined(separator: separator))`, made part by part without the joined text: the same
    /// ID. An import derives hundreds of thousands.
    public struct Derivation {
        private var hash = SHA1()
        private let separator: String
        private var empty = true

        public init(separator: String) {
            self.init(namespace: ActivityID.vitalSnapNamespace, separator: separator)
        }

        init(namespace: UUID, separator: String) {
            self.separator = separator
            withUnsafeBytes(of: namespace.uuid) { hash.update($0) }
        }

        public mutating func append(_ part: String) {
            if !empty { hash.update(separator.utf8) }
            empty = false
            hash.update(part.utf8)
        }

        /// The version 5 UUID, lowercase.
        public mutating func id() -> String {
            // The digest's first 16 bytes are the UUID's; `lowercaseText` writes only those.
            var bytes = hash.finalize()
            bytes[6] = bytes[6] & ActivityID.versionByteHashBits | ActivityID.nameBasedSHA1Version
            bytes[8] = bytes[8] & ActivityID.variantByteHashBits | ActivityID.rfc4122Variant
            return ActivityID.lowercaseText(bytes)
        }
    }

    /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in lowercase hex, written in place (an import makes hundreds of
    /// thousands of these), as `UUID.uuidString.lowercased()` writes it.
    static func lowercaseText(_ bytes: [UInt8]) -> String {
        String(unsafeUninitializedCapacity: 36) { out in
            var at = 0
            for (index, byte) in bytes.prefix(uuidSize).enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    out[at] = UInt8(ascii: "-")
                    at += 1
                }
                out[at] = hexDigits[Int(byte >> 4)]
                out[at + 1] = hexDigits[Int(byte & 0x0F)]
                at += 2
            }
            return at
        }
    }
}
