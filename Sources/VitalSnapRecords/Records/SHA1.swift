/// SHA-1 (FIPS 180-4), for name-based UUIDs (RFC 4122, version 5) only: Foundation on Linux has no CryptoKit.
///
/// SHA-1 is broken for collision resistance against an attacker who chooses both inputs; a version 5 UUID does not
/// rely on it for security, only to spread names evenly over 122 bits, which it still does.
struct SHA1 {
    /// Bytes per message block.
    static let blockSize = 64
    /// Bytes of the digest.
    static let digestSize = 20
    /// Bytes at the end of the last block that hold the message length in bits (big-endian).
    private static let lengthFieldSize = 8
    /// The padding's first byte: a single 1 bit after the message.
    private static let paddingMarker: UInt8 = 0x80
    /// H(0), the initial hash value (FIPS 180-4, 5.3.1).
    private static let initialState: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
    // K(t) for rounds 0-19, 20-39, 40-59 and 60-79 (FIPS 180-4, 4.2.1) are written in `compress`.
    /// Words of the message schedule, and rounds per block.
    private static let rounds = 80

    private var h0: UInt32 = SHA1.initialState[0], h1: UInt32 = SHA1.initialState[1], h2: UInt32 = SHA1.initialState[2]
    private var h3: UInt32 = SHA1.initialState[3], h4: UInt32 = SHA1.initialState[4]
    /// Bytes taken but not yet hashed (`pendingCount` of them, less than one block), kept inline: an import
    /// hashes hundreds of thousands of short names, and a heap buffer per hash was most of its cost.
    private var pending: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var pendingCount = 0
    private var messageLength: UInt64 = 0

    init() {}

    /// The digest of `bytes` in one call.
    static func digest<Bytes: Sequence>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var hash = SHA1()
        hash.update(bytes)
        return hash.finalize()
    }

    mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        // Contiguous bytes (an array, a native string's UTF-8) are hashed a block at a time where they can be.
        let done: Void? = bytes.withContiguousStorageIfAvailable { buffer in update(UnsafeRawBufferPointer(buffer)) }
        if done != nil { return }
        for byte in bytes { append(byte) }
    }

    mutating func update(_ buffer: UnsafeRawBufferPointer) {
        var index = 0
        while index < buffer.count, pendingCount > 0 {
            append(buffer[index])
            index += 1
        }
        while buffer.count - index >= Self.blockSize {
            compress(UnsafeRawBufferPointer(rebasing: buffer[index..<index + Self.blockSize]))
            messageLength &+= UInt64(Self.blockSize)
            index += Self.blockSize
        }
        while index < buffer.count {
            append(buffer[index])
            index += 1
        }
    }

    private mutating func append(_ byte: UInt8) {
        withUnsafeMutableBytes(of: &pending) { $0[pendingCount] = byte }
        pendingCount += 1
        messageLength &+= 1
        if pendingCount == Self.blockSize { compressPending() }
    }

    private mutating func compressPending() {
        var block = pending
        withUnsafeBytes(of: &block) { compress($0) }
        pendingCount = 0
    }

    /// The 20-byte digest; the value is used up (padding is added to it).
    mutating func finalize() -> [UInt8] {
        let bitLength = messageLength &* 8
        let marker = Self.paddingMarker
        withUnsafeMutableBytes(of: &pending) { $0[pendingCount] = marker }
        pendingCount += 1
        if pendingCount > Self.blockSize - Self.lengthFieldSize {
            withUnsafeMutableBytes(of: &pending) { bytes in
                for index in pendingCount..<Self.blockSize { bytes[index] = 0 }
            }
            compressPending()
        }
        withUnsafeMutableBytes(of: &pending) { bytes in
            for index in pendingCount..<(Self.blockSize - Self.lengthFieldSize) { bytes[index] = 0 }
            for (offset, shift) in stride(from: 56, through: 0, by: -8).enumerated() {
                bytes[Self.blockSize - Self.lengthFieldSize + offset] = UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))
            }
        }
        compressPending()
        var digest: [UInt8] = []
        digest.reserveCapacity(Self.digestSize)
        for word in [h0, h1, h2, h3, h4] {
            for shift in stride(from: 24, through: 0, by: -8) { digest.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) }
        }
        return digest
    }
    /// One block of 64 bytes into the state (FIPS 180-4, 6.1.2); the message schedule lives on the stack.
    private mutating func compress(_ block: UnsafeRawBufferPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: Self.rounds) { w in
            for t in 0..<16 {
                w[t] = UInt32(block[4 * t]) << 24 | UInt32(block[4 * t + 1]) << 16 | UInt32(block[4 * t + 2]) << 8 | UInt32(block[4 * t + 3])
            }
            for t in 16..<Self.rounds { w[t] = rotateLeft(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1) }
            var a = h0, b = h1, c = h2, d = h3, e = h4
            for t in 0..<Self.rounds {
                let f: UInt32
                let k: UInt32
                switch t / 20 {
                case 0:
                    f = (b & c) | (~b & d)  // Ch
                    k = 0x5A82_7999
                case 1:
                    f = b ^ c ^ d  // Parity
                    k = 0x6ED9_EBA1
                case 2:
                    f = (b & c) | (b & d) | (c & d)  // Maj
                    k = 0x8F1B_BCDC
                default:
                    f = b ^ c ^ d  // Parity
                    k = 0xCA62_C1D6
                }
                let temp = rotateLeft(a, 5) &+ f &+ e &+ k &+ w[t]
                e = d
                d = c
                c = rotateLeft(b, 30)
                b = a
                a = temp
            }
            h0 &+= a
            h1 &+= b
            h2 &+= c
            h3 &+= d
            h4 &+= e
        }
    }

    private func rotateLeft(_ x: UInt32, _ n: UInt32) -> UInt32 {
        x << n | x >> (32 - n)
    }
}
