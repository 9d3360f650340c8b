/// Glucose Measurement Context (0x2A34): what a meter knows about a reading besides the value (the meal, the
/// tester, exercise, medication, HbA1c), sent right after the Glucose Measurement with the same sequence number.
public struct GlucoseMeasurementContext: Equatable, Sendable {
    public static let uuid: UInt16 = 0x2A34
    static let name = "Glucose Measurement Context (2A34)"

    /// The meal field's values.
    public enum Meal: Int, Sendable {
        case preprandial = 1, postprandial, fasting, casual, bedtime
    }

    public enum MedicationUnit: String, Sendable { case mass, volume }

    public struct Carbohydrate: Equatable, Sendable {
        /// 1 breakfast, 2 lunch, 3 dinner, 4 snack, 5 drink, 6 supper, 7 brunch.
        public var id: Int
        public var grams: MedicalFloat
    }

    public struct Exercise: Equatable, Sendable {
        public var durationSeconds: Int
        public var intensityPercent: Int
    }

    public struct Medication: Equatable, Sendable {
        /// 1 rapid-acting, 2 short-acting, 3 intermediate-acting, 4 long-acting insulin, 5 pre-mixed.
        public var id: Int
        /// As sent, of mass or volume as `unit` says.
        public var amount: MedicalFloat
        public var unit: MedicationUnit
    }

    public var sequenceNumber: UInt16
    public var extendedFlags: UInt8?
    public var carbohydrate: Carbohydrate?
    /// nil when absent or a value the specification does not define (that value is in `mealValue`).
    public var meal: Meal? { mealValue.flatMap(Meal.init(rawValue:)) }
    public var mealValue: Int?
    /// 1 self, 2 health care professional, 3 lab test, 15 not available.
    public var tester: Int?
    /// 1 minor issues, 2 major issues, 3 menses, 4 stress, 5 none, 15 not available.
    public var health: Int?
    public var exercise: Exercise?
    public var medication: Medication?
    public var hba1cPercent: MedicalFloat?

    public init(_ bytes: [UInt8]) throws(GATTDecodeError) {
        var reader = GATTReader(bytes, characteristic: Self.name)
        let flags = try reader.uint8("flags")
        sequenceNumber = try reader.uint16("sequence number")
        extendedFlags = flags & 0x80 != 0 ? try reader.uint8("extended flags") : nil
        if flags & 0x01 != 0 {
            carbohydrate = Carbohydrate(id: Int(try reader.uint8("carbohydrate ID")), grams: try reader.sfloat("carbohydrate amount"))
        }
        mealValue = flags & 0x02 != 0 ? Int(try reader.uint8("meal")) : nil
        if flags & 0x04 != 0 {
            let both = try reader.uint8("tester and health")
            tester = Int(both & 0x0F)
            health = Int(both >> 4)
        }
        if flags & 0x08 != 0 {
            exercise = Exercise(
                durationSeconds: Int(try reader.uint16("exercise duration")), intensityPercent: Int(try reader.uint8("exercise intensity")))
        }
        if flags & 0x10 != 0 {
            medication = Medication(
                id: Int(try reader.uint8("medication ID")), amount: try reader.sfloat("medication amount"),
                unit: flags & 0x20 != 0 ? .volume : .mass)
        }
        hba1cPercent = flags & 0x40 != 0 ? try reader.sfloat("HbA1c") : nil
    }
}
