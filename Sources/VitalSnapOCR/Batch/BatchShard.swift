/// One of N stable shares of a batch's inputs (`batch --shard K/N`), for running it on several machines or
/// job-array tasks: each path belongs to exactly one shard, chosen from a hash of the path as given (FNV-1a,
/// 64 bits, then MurmurHash3's finalizer, since FNV's low bits alone split similar names unevenly), so the
/// split does not depend on the order of the inputs, on how many there are, or on the machine. Run K = 1...N
/// over the same paths and every input is read once.
public struct BatchShard: Sendable, Hashable, CustomStringConvertible {
    /// 1...count.
    public let index: Int
    public let count: Int

    public init(index: Int, count: Int) throws(BatchShardError) {
        guard count >= 1 else { throw .badCount(count) }
        guard (1...count).contains(index) else { throw .badIndex(index, count: count) }
        self.index = index
        self.count = count
    }

    /// Parses `K/N`.
    public init(parsing text: String) throws(BatchShardError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else { throw .notKOverN(text) }
        try self.init(index: k, count: n)
    }

    public func contains(_ path: String) -> Bool {
        Int(Self.mix(Self.hash(path)) % UInt64(count)) == index - 1
    }

    /// FNV-1a over the path's UTF-8 bytes.
    static func hash(_ path: String) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in path.utf8 {
            h ^= UInt64(byte)
            h &*= 0x0000_0100_0000_01B3
        }
        return h
    }

    /// MurmurHash3's 64-bit finalizer (fmix64): every input bit reaches every output bit.
    static func mix(_ value: UInt64) -> UInt64 {
        var h = value
        h ^= h >> 33
        h &*= 0xff51_afd7_ed55_8ccd
        h ^= h >> 33
        h &*= 0xc4ce_b9fe_1a85_ec53
        h ^= h >> 33
        return h
    }

    public var description: String { "\(index)/\(count)" }
}

public enum BatchShardError: Error, CustomStringConvertible, Equatable {
    case notKOverN(String)
    case badCount(Int)
    case badIndex(Int, count: Int)

    public var description: String {
        switch self {
        case .notKOverN(let text): "a shard is K/N, such as 1/4 (got \(text))"
        case .badCount(let n): "a shard count must be at least 1 (got \(n))"
        case .badIndex(let k, let n): "shard \(k) of \(n) does not exist: K runs from 1 to \(n)"
        }
    }
}
