import VitalSnapImaging
import VitalSnapRecords

/// A record read by the camera, with the crop of the display it was read from and how it was read.
///
/// The crop stays beside the record, not in it: records are small JSON bodies, the image is uploaded separately
/// (Validic's SDK posts it to the record's `/media` after the record) and shown to the person to confirm.
public struct OCRCapture: Sendable, Equatable {
    public var record: Record
    /// The display as the camera saw it.
    public var crop: GrayImage
    public var metadata: CaptureMetadata

    public init(record: Record, crop: GrayImage, metadata: CaptureMetadata) {
        self.record = record
        self.crop = crop
        self.metadata = metadata
    }
}
