import Testing
@testable import VitalSnapOCR

extension DisplayReader {
    /// A reader of the built-in `peripheral` (mg/dL for a glucose meter, 9) with stand-in `stages`, photos not
    /// stood upright; `photo`: configured as for photos (the photo locator's looks and the second opinion asked),
    /// else as for a camera's frames.
    static func standIn(stages: ReaderStages, peripheral: Int, photo: Bool) throws -> DisplayReader {
        var configuration = DisplayReader.Configuration()
        configuration.standsPhotosUpright = false
        configuration.usesPhotoLocator = photo
        configuration.asksSecondOpinion = photo
        let definition = try #require(try PeripheralCatalog.builtIn()[peripheral])
        return DisplayReader(peripheral: definition, unit: peripheral == 9 ? "mg/dL" : nil, stages: stages, configuration: configuration)
    }
}
