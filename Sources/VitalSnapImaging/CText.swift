/// Reading NUL-terminated text out of fixed-size C char arrays (imported as tuples).
enum CText {
    static func string<T>(fromTuple tuple: T) -> String {
        withUnsafeBytes(of: tuple) { string(fromBytes: $0) }
    }

    static func string(fromBytes raw: UnsafeRawBufferPointer) -> String {
        let end = raw.firstIndex(of: 0) ?? raw.count
        return String(decoding: UnsafeRawBufferPointer(rebasing: raw[..<end]), as: UTF8.self)
    }
}
