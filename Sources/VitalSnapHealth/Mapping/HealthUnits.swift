import VitalSnapRecords

/// The export's unit strings, turned into the canonical units of VitalSnap's records. Unit strings follow the
/// phone's settings (km or mi, kcal or Cal, mg/dL or mmol/L), so each quantity accepts the spellings HealthKit
/// writes for it; an unknown unit makes the sample unreadable rather than guessed.
enum HealthUnits {
    /// HealthKit's molar-mass form of mmol/L in exports: `mmol<180.1558800000541>/L`.
    static func glucoseUnit(_ unit: String?) -> GlucoseUnit? {
        guard let unit else { return nil }
        if unit == "mg/dL" { return .mgPerDL }
        if unit.hasPrefix("mmol"), unit.hasSuffix("/L") { return .mmolPerL }
        return nil
    }

    static func temperatureUnit(_ unit: String?) -> TemperatureUnit? {
        switch unit {
        case "degC": .celsius
        case "degF": .fahrenheit
        default: nil
        }
    }

    static func weightUnit(_ unit: String?) -> WeightUnit? {
        switch unit {
        case "kg": .kilograms
        case "lb": .pounds
        case "st": .stones
        case "g": nil
        default: nil
        }
    }

    /// Metres in one unit of distance.
    static func metres(_ unit: String?) -> Double? {
        switch unit {
        case "m": 1
        case "km": 1000
        case "mi": 1609.344  // international mile, exact
        case "ft": 0.3048  // international foot, exact
        case "yd": 0.9144
        case "cm": 0.01
        case "in": 0.0254  // international inch, exact
        default: nil
        }
    }

    /// Kilocalories in one unit of energy. HealthKit's `Cal` is the food calorie, a kilocalorie.
    static func kilocalories(_ unit: String?) -> Double? {
        switch unit {
        case "kcal", "Cal": 1
        case "cal": 0.001
        case "kJ": 1 / 4.184  // thermochemical calorie, 4.184 J exactly
        case "J": 1 / 4184
        default: nil
        }
    }

    /// Seconds in one unit of time.
    static func seconds(_ unit: String?) -> Double? {
        switch unit {
        case "s": 1
        case "min": 60
        case "hr", "h": 3600
        default: nil
        }
    }

    /// Grams in one unit of mass (nutrients).
    static func grams(_ unit: String?) -> Double? {
        switch unit {
        case "g": 1
        case "mg": 0.001
        case "mcg", "µg": 0.000_001
        case "kg": 1000
        case "oz": 28.349523125  // avoirdupois ounce, exact
        default: nil
        }
    }

    /// Litres in one unit of volume (water).
    static func litres(_ unit: String?) -> Double? {
        switch unit {
        case "L": 1
        case "mL": 0.001
        case "fl_oz_us": 0.0295735295625  // US fluid ounce, exact
        case "cup_us": 0.2365882365
        default: nil
        }
    }
}
