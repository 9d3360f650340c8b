import Foundation

/// Reading values out of `JSONSerialization`'s objects the same way on every platform.
enum JSONValue {
    /// An integral JSON number as an Int; nil for anything else (strings, fractions, out of range). Booleans may
    /// read as 0 and 1: JSONSerialization's numbers and booleans are both NSNumber on some platforms.
    static func integer(_ value: Any) -> Int? {
        if let n = value as? Int { return n }
        if let d = value as? Double, d.rounded() == d, abs(d) < 0x1p62 { return Int(d) }
        return nil
    }
}
