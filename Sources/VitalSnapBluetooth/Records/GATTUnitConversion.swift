import VitalSnapRecords

/// The factors from the units GATT characteristics use to the units records are made in.
enum GATTUnitConversion {
    /// kg/L to mg/dL: 1 kg/L is 10^6 mg in 10 dL, 10^5 mg/dL; applied to the SFLOAT's decimal exponent, so
    /// 0.0012 kg/L is exactly 120 mg/dL.
    static let kilogramsPerLitreToMilligramsPerDecilitreExponent = 5
    /// mol/L to mmol/L: 10^3.
    static let molesToMillimolesExponent = 3
    /// mmHg in one kPa, 1000 / (101325 / 760): the torr's definition (1/760 of a standard atmosphere,
    /// 101325 Pa), the figure unit tables quote for mmHg. The conventional millimetre of mercury (13.5951 g/cm³
    /// of mercury under 9.80665 m/s², 133.322387415 Pa) gives 7.50061576; the two differ by 0.14 parts per
    /// million, far below a cuff's resolution.
    static let millimetresOfMercuryPerKilopascal = 7.50061683
    /// Centimetres in one inch: exact by definition (international inch, 1959).
    static let centimetresPerInch = 2.54
    static let centimetresPerMetre = 100.0
    /// A converted value as Core keeps conversions (ten decimals: every real digit, no binary noise).
    static func rounded(_ value: Double) -> Double { DecimalRounding.converted(value) }
}

extension MedicalFloat {
    /// The number times 10^`power`, computed on the decimal exponent so no binary rounding creeps in; nil for the
    /// special values.
    func double(timesTenToThe power: Int) -> Double? {
        guard case .value(let mantissa, let exponent) = self else { return nil }
        return MedicalFloat.value(mantissa: mantissa, exponent: exponent + power).double
    }
}
