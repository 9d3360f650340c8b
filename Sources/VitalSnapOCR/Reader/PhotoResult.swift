import VitalSnapImaging

/// What reading one image file gave.
public struct PhotoResult: Sendable {
    public enum Status: String, Sendable, Codable {
        case ok
        case noReading = "no-reading"
        case error
    }

    public var file: String
    public var status: Status
    public var reading: Reading?
    public var glare: GlareReport?
    /// Why the file could not be read (status `error`), or why nothing was read (status `no-reading`).
    public var message: String?
    /// Size of the image as stored, and the scale it was decoded at.
    public var imageWidth = 0
    public var imageHeight = 0
    public var warnings: [String] = []
    /// The transform the photo was read through (`.up`: as it is): its reading's lines are in that frame, its
    /// glare mapped back to the photo as given.
    public var readOrientation = ExifOrientation.up

    public init(file: String, status: Status, reading: Reading? = nil, glare: GlareReport? = nil, message: String? = nil) {
        self.file = file
        self.status = status
        self.reading = reading
        self.glare = glare
        self.message = message
    }
}
