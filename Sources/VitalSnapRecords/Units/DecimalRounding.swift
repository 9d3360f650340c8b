import Foundation

/// Rounding of measurement values to a number of decimals, half away from zero, as people round on paper.
public enum DecimalRounding {
    /// Decimals kept by unit conversions. The Android SDK converts with `BigDecimal` at scale 10, `ROUND_HALF_UP`;
    /// keeping the same precision makes our canonical values agree with records the mobile SDK would produce,
    /// and it removes binary noise (`5.6 * 18` is `100.80000000000001` in a raw `Double`).
    static let conversionDecimals = 10

    /// The result of a unit conversion, kept to `conversionDecimals`: what every module's conversions store.
    public static func converted(_ value: Double) -> Double {
        round(value, decimals: conversionDecimals)
    }

    static func round(_ value: Double, decimals: Int) -> Double {
        guard value.isFinite else { return value }
        let scale = pow(10.0, Double(decimals))
        var scaled = value * scale
        // A double holds 5.65 as 5.6499999999999995: snap away the last binary digits first, so that a value
        // that reads as an exact half in decimal rounds up as the person expects. Only where the snap is exact.
        if abs(scaled) < 1e9 { scaled = (scaled * 1e6).rounded() / 1e6 }
        return scaled.rounded(.toNearestOrAwayFromZero) / scale
    }

    /// `value` rounded to exactly `decimals` digits after the point: `5.6`, `101`, `37.0`.
    static func text(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "NaN" : (value < 0 ? "-inf" : "inf") }
        let rounded = round(value, decimals: decimals)
        let text = String(format: "%.\(max(0, decimals))f", rounded)
        return text.hasPrefix("-") && Double(text) == 0 ? String(text.dropFirst()) : text
    }

    /// At least `minimumDecimals` digits, more only when the value has them: `5.6` stays `5.6`, `37` becomes
    /// `37.0` with one decimal, and `5.55` keeps both digits rather than pretending the display showed `5.6`.
    static func text(_ value: Double, minimumDecimals: Int) -> String {
        guard value.isFinite else { return text(value, decimals: 0) }
        for decimals in minimumDecimals...max(minimumDecimals, conversionDecimals) {
            if round(value, decimals: decimals) == value { return text(value, decimals: decimals) }
        }
        return text(value, decimals: conversionDecimals)
    }

    /// Shortest text for messages: `2000`, `0.5`, `37.5`.
    public static func shortText(_ value: Double) -> String {
        text(value, minimumDecimals: 0)
    }
}
