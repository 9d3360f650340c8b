import Foundation
import Testing
import VitalSnapImaging
@testable import VitalSnapOCR

/// The photo locator (`ReaderStages.photoLocator`, the trained reader's photo detector) locates the lines of a
/// photo of a medical device; a plain numeric display's photos and a camera's frames keep the first locator.
struct PhotoLocatorTests {
    typealias Counts = ReaderChainTests.Counts
    typealias CountingLocator = ReaderChainTests.CountingLocator

    /// A reader of `peripheral` whose two locators count their calls apart.
    func reader(peripheral id: Int, configuration: DisplayReader.Configuration = .init()) throws -> (DisplayReader, first: Counts, photo: Counts) {
        let first = Counts(), photo = Counts()
        var stages = ReaderStages.model(try ReaderModels.bundled())
        let photoLocator = try #require(stages.photoLocator, "the bundled models have a photo detector")
        stages.locator = CountingLocator(inner: stages.locator, counts: first)
        stages.photoLocator = CountingLocator(inner: photoLocator, counts: photo)
        let peripheral = try #require(try PeripheralCatalog.builtIn()[id])
        return (DisplayReader(peripheral: peripheral, stages: stages, configuration: configuration), first, photo)
    }

    func still(_ path: String) throws -> GrayImage {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Samples/stills/\(path)")
        return try ImageDecoder.decode(contentsOf: url.path).image
    }

    @Test func aMedicalDevicesPhotoIsLocatedByThePhotoLocator() throws {
        var (reader, first, photo) = try reader(peripheral: 2)
        let result = try reader.read(image: try still("bp-b3/bp-b3-01.jpg"))
        #expect(result.reading?.readingString != nil, "\(result.message ?? "")")
        #expect(photo.located >= 1)
        #expect(first.located == 0, "the first locator is not asked where the photo locator reads")
        #expect(reader.stages.photoLocator == nil, "chosen once, when the reader is made")
    }

    @Test func aNumericDisplayKeepsTheFirstLocator() throws {
        let numeric = try #require(try PeripheralCatalog.builtIn().peripherals(ofType: .numericDisplay).first)
        var (reader, first, photo) = try reader(peripheral: numeric.id)
        _ = try reader.read(image: try still("bp-b3/bp-b3-01.jpg"))
        #expect(first.located >= 1)
        #expect(photo.located == 0)
    }

    @Test func aCamerasFramesKeepTheFirstLocator() throws {
        var live = DisplayReader.Configuration()
        live.usesPhotoLocator = false
        var (reader, first, photo) = try reader(peripheral: 2, configuration: live)
        _ = try reader.read(image: try still("bp-b3/bp-b3-01.jpg"))
        #expect(first.located >= 1)
        #expect(photo.located == 0)
    }
}
