/// An IEEE 11073-20601 number as GATT's health characteristics carry it: SFLOAT (16 bits: a 4-bit signed
/// exponent over a 12-bit signed mantissa) or FLOAT (32 bits: 8-bit exponent, 24-bit mantissa), value =
/// mantissa x 10^exponent, with reserved mantissas for "not a number", "not at this resolution" and the
/// infinities. The decimal digits the device sent are kept (`mantissa`, `exponent`), so 37.60 stays 37.60.
public enum MedicalFloat: Equatable, Sendable, CustomStringConvertible {
    case value(mantissa: Int, exponent: Int)
    case notANumber
    /// NRes: the value cannot be represented at this resolution.
    case notAtThisResolution
    case positiveInfinity
    case negativeInfinity
    /// A mantissa the standard reserves for future use.
    case reserved

    public init(sfloat raw: UInt16) {
        switch raw {
        case 0x07FF: self = .notANumber
        case 0x0800: self = .notAtThisResolution
        case 0x07FE: self = .positiveInfinity
        case 0x0802: self = .negativeInfinity
        case 0x0801: self = .reserved
        default:
            let mantissa = Int(Int16(bitPattern: raw << 4) >> 4)  // 12-bit two's complement
            let exponent = Int(Int8(bitPattern: UInt8(raw >> 12) << 4) >> 4)  // 4-bit two's complement
            self = .value(mantissa: mantissa, exponent: exponent)
        }
    }

    public init(float raw: UInt32) {
        let mantissaBits = raw & 0x00FF_FFFF
        switch mantissaBits {
        case 0x7F_FFFF: self = .notANumber
        case 0x80_0000: self = .notAtThisResolution
        case 0x7F_FFFE: self = .positiveInfinity
        case 0x80_0002: self = .negativeInfinity
        case 0x80_0001: self = .reserved
        default:
            let mantissa = Int(Int32(bitPattern: mantissaBits << 8) >> 8)  // 24-bit two's complement
            let exponent = Int(Int8(bitPattern: UInt8(raw >> 24)))
            self = .value(mantissa: mantissa, exponent: exponent)
        }
    }

    /// The number, or nil for the special values.
    public var double: Double? {
        guard case .value(let mantissa, let exponent) = self else { return nil }
        // Exact decimal scaling: 3760 x 10^-2 is 37.6, not 37.599999...
        return exponent >= 0
            ? Double(mantissa) * Self.powerOfTen(exponent)
            : Double(mantissa) / Self.powerOfTen(-exponent)
    }

    private static func powerOfTen(_ n: Int) -> Double {
        var result = 1.0
        for _ in 0..<n { result *= 10 }
        return result
    }

    public var description: String {
        switch self {
        case .value(let mantissa, let exponent):
            guard exponent < 0 else { return String(Double(mantissa) * Self.powerOfTen(exponent)) }
            // mantissa with the decimal point placed: 3760, -2 -> "37.60".
            let digits = String(abs(mantissa)), places = -exponent
            let padded = String(repeating: "0", count: max(0, places + 1 - digits.count)) + digits
            let cut = padded.index(padded.endIndex, offsetBy: -places)
            return (mantissa < 0 ? "-" : "") + padded[..<cut] + "." + padded[cut...]
        case .notANumber: return "NaN"
        case .notAtThisResolution: return "NRes"
        case .positiveInfinity: return "+INF"
        case .negativeInfinity: return "-INF"
        case .reserved: return "reserved"
        }
    }
}
