import Foundation

/// The strings of one attribute's last few distinct values, so that an export repeating the same type, unit,
/// source or device description millions of times makes each String once, not once per element. Bounded: a
/// value not among the recent ones replaces the oldest.
struct RecentStrings {
    /// Distinct values kept: an export's elements come in runs of one type, interleaving a few sources.
    static let kept = 8

    private var bytes: [[UInt8]] = []
    private var strings: [String] = []
    private var oldest = 0
    /// Known values, each as its string literal: a literal's storage is never counted, where one String made
    /// here and shared by every element of a run was counted from three threads at once, each count fighting
    /// the others for the same cache line.
    private let known: [String: String]

    init(known: [String: String] = [:]) {
        self.known = known
    }

    /// The value of `buffer` as a String, made now only when it is not one of the recent ones.
    mutating func string(_ buffer: UnsafeRawBufferPointer) -> String {
        for index in bytes.indices where bytes[index].count == buffer.count {
            let same = bytes[index].withUnsafeBytes { known in
                buffer.count == 0 || memcmp(known.baseAddress!, buffer.baseAddress!, buffer.count) == 0
            }
            if same { return strings[index] }
        }
        let made = String(decoding: buffer, as: UTF8.self)
        let string = known[made] ?? made
        if bytes.count < Self.kept {
            bytes.append(Array(buffer))
            strings.append(string)
        } else {
            bytes[oldest] = Array(buffer)
            strings[oldest] = string
            oldest = (oldest + 1) % Self.kept
        }
        return string
    }
}
