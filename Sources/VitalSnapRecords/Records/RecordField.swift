/// A measurement a record carries, with the unit records store it in and the values that are physically possible.
///
/// The raw value is the field's JSON name in Validic's ingestion body.
public enum RecordField: String, Codable, Sendable, Hashable, CaseIterable {
    case bloodGlucose = "blood_glucose"
    case systolic
    case diastolic
    /// Pulse, from a blood pressure monitor or a pulse oximeter: Validic's `restingHeartrate`.
    case restingHeartRate = "resting_heartrate"
    case temperature
    case spo2
    case weight
    /// Centimetres, measured with a weight (a scale that knows its user's height, or one entered with it).
    case height
    /// Fat-free (lean) body mass, kilograms; Validic's `free_mass`.
    case freeMass = "free_mass"
    /// Body fat, percent of body mass; Validic's `fat_percent`.
    case fatPercent = "fat_percent"
    /// Body mass index, kg/m².
    case bmi

    // Routine: a day's totals of everyday movement.
    case steps
    /// Metres; shared by routine (the day's total) and fitness (the activity's).
    case distance
    case floors
    /// Metres climbed, not altitude: a height gained is never negative.
    case elevation
    case caloriesBurned = "calories_burned"
    /// Seconds of the day spent active.
    case activeDuration = "active_duration"

    // Fitness: one workout or activity.
    /// Seconds the activity lasted.
    case duration
    /// Kilocalories; burned in a fitness record, eaten in a nutrition record.
    case calories

    // Nutrition: a meal, or a day's intake.
    case carbohydrates
    case fat
    case fiber
    case protein
    case sodium
    /// Millilitres. Validic's v1 documentation says grams of water; 1 g of water is 1 mL, and people measure
    /// drinks by volume.
    case water

    // Sleep: one night (or nap), in seconds per stage.
    case totalSleep = "total_sleep"
    case awake
    case deep
    case light
    case rem
    case timesWoken = "times_woken"

    /// The name in messages to people.
    public var displayName: String {
        switch self {
        case .bloodGlucose: "blood glucose"
        case .systolic: "systolic pressure"
        case .diastolic: "diastolic pressure"
        case .restingHeartRate: "pulse"
        case .temperature: "temperature"
        case .spo2: "SpO2"
        case .weight: "weight"
        case .height: "height"
        case .freeMass: "lean body mass"
        case .fatPercent: "body fat"
        case .bmi: "BMI"
        case .steps: "steps"
        case .distance: "distance"
        case .floors: "floors climbed"
        case .elevation: "elevation climbed"
        case .caloriesBurned: "calories burned"
        case .activeDuration: "active time"
        case .duration: "duration"
        case .calories: "calories"
        case .carbohydrates: "carbohydrates"
        case .fat: "fat"
        case .fiber: "fiber"
        case .protein: "protein"
        case .sodium: "sodium"
        case .water: "water"
        case .totalSleep: "total sleep"
        case .awake: "time awake"
        case .deep: "deep sleep"
        case .light: "light sleep"
        case .rem: "REM sleep"
        case .timesWoken: "times woken"
        }
    }

    /// The unit records store this field in; empty for counts (steps, floors, times woken).
    public var canonicalUnit: String {
        switch self {
        case .bloodGlucose: GlucoseUnit.canonical.symbol
        case .systolic, .diastolic: "mmHg"
        case .restingHeartRate: "bpm"
        case .temperature: TemperatureUnit.canonical.symbol
        case .spo2: "%"
        case .weight, .freeMass: WeightUnit.canonical.symbol
        case .height: "cm"
        case .fatPercent: "%"
        case .bmi: "kg/m²"
        case .steps, .floors, .timesWoken: ""
        case .distance, .elevation: "m"
        case .caloriesBurned, .calories: "kcal"
        case .activeDuration, .duration, .totalSleep, .awake, .deep, .light, .rem: "s"
        case .carbohydrates, .fat, .fiber, .protein: "g"
        case .sodium: "mg"
        case .water: "mL"
        }
    }

    /// Values (in the canonical unit) a living person can have, or a device can report about one.
    ///
    /// Deliberately wider than a display's plausible range (the OCR's stricter check): this range only rejects
    /// values that must be errors (a unit mix-up, a misplaced decimal point), never a rare true reading.
    public var physicalRange: ClosedRange<Double> {
        switch self {
        case .bloodGlucose: 1...2000
        case .systolic: 40...300
        case .diastolic: 20...250
        case .restingHeartRate: 20...300
        case .temperature: 25...45
        case .spo2: 0...100
        case .weight: 0.5...700
        // The shortest and tallest adults recorded (55 cm, 272 cm), with room for infants.
        case .height: 30...280
        case .freeMass: 0.5...700
        // Essential fat is a few percent; above about 75 % a living person is not known.
        case .fatPercent: 1...80
        // The heaviest people measured have had a BMI near 200; below 7 is not survivable.
        case .bmi: 5...250
        // Activity limits: all from zero (nothing is done a negative amount), and each far above any record
        // set, so that only a unit slip (kJ for kcal, mg for g, ms for s) or a typo lands outside.
        // Well over twice the ~100,000 steps of a 24-hour ultramarathon.
        case .steps: 0...200_000
        // 1,000 km: more than a day on a bike, or a multi-day event recorded as one activity.
        case .distance: 0...1_000_000
        // 30 km climbed is more than three Everests from sea level in a day; floors at 3 m each to match.
        case .elevation: 0...30_000
        case .floors: 0...10_000
        // A Tour de France stage burns about 8,000 kcal; the same in kJ (33,000) is out.
        case .caloriesBurned, .calories: 0...20_000
        // A day has 86,400 s: no one is active, asleep or awake in bed longer within one day's record.
        case .activeDuration, .totalSleep, .awake, .deep, .light, .rem: 0...86_400
        // A week: one activity can outlast a day (a 100-mile race takes up to about 36 h).
        case .duration: 0...604_800
        // 20,000 kcal of one nutrient: 4 kcal/g for carbohydrates and protein, 9 kcal/g for fat.
        case .carbohydrates, .protein: 0...5_000
        case .fat: 0...2_500
        // Ten times a very high-fibre day (~100 g).
        case .fiber: 0...1_000
        // 100 g of sodium (250 g of salt) is many times a lethal dose; a typical day is 2,000-5,000 mg.
        case .sodium: 0...100_000
        // 20 L: several times the most anyone drinks in a day.
        case .water: 0...20_000
        // One waking per 30-second sleep-scoring epoch, for a whole day.
        case .timesWoken: 0...2_880
        }
    }

    /// Throws unless `value` is a finite number within `physicalRange`.
    public func check(_ value: Double) throws(RecordValidationError) {
        guard value.isFinite, physicalRange.contains(value) else {
            throw .outOfRange(field: self, value: value, range: physicalRange)
        }
    }
}
