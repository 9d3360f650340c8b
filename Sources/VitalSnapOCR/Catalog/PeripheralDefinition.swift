/// One OCR peripheral: a device family (generic ids) or one meter design, as defined in `Overlays/`.
public struct PeripheralDefinition: Codable, Sendable, Identifiable, Hashable {
    public var id: Int
    public var type: PeripheralType
    public var manufacturer: String
    public var model: String
    /// What to tell the user before reading.
    public var instructions: String
    /// The overlay image's shape and where the display window sits in it.
    public var overlay: OverlayGeometry
    public var polarity: DisplayPolarity
    /// In the order the reading string lists them (`SYS/DIA/PULSE`); auxiliary fields (time, date) last.
    public var fields: [FieldDefinition]

    public init(
        id: Int, type: PeripheralType, manufacturer: String, model: String, instructions: String,
        overlay: OverlayGeometry, polarity: DisplayPolarity, fields: [FieldDefinition]
    ) {
        self.id = id
        self.type = type
        self.manufacturer = manufacturer
        self.model = model
        self.instructions = instructions
        self.overlay = overlay
        self.polarity = polarity
        self.fields = fields
    }

    public var name: String { "\(manufacturer) \(model)" }

    /// Generic peripherals describe a device family: field positions are unknown and found in the image.
    public var isGeneric: Bool { fields.allSatisfy { $0.box == nil } }

    /// The fields that make up the reading (not the time or date a meter also shows).
    public var measurementFields: [FieldDefinition] { fields.filter { $0.name.isMeasurement } }

    /// Width over height of the display window.
    public var displayAspectRatio: Double {
        overlay.aspectRatio * overlay.display.width / overlay.display.height
    }
}
