import XCTest
import VitalSnapImaging
@testable import VitalSnapOCR

final class OverlayLayoutTests: XCTestCase {
    static let catalog = try! PeripheralCatalog.builtIn()

    static func definition(_ id: Int) throws -> PeripheralDefinition {
        try XCTUnwrap(catalog[id], "peripheral \(id)")
    }

    // MARK: - Layout

    func testPortraitOverlayInLandscapePreviewIsHeightLimitedAndCentred() throws {
        // Peripheral 9: overlay aspect 0.62, display [0.12, 0.1, 0.76, 0.42].
        let layout = OverlayLayout(previewWidth: 1280, previewHeight: 720, peripheral: try Self.definition(9))
        XCTAssertEqual(layout.inset, 36, "5 % of 720")
        // Height 720 - 2 * 36 = 648; width 648 * 0.62 = 401.76, centred at x = 439.12.
        XCTAssertEqual(layout.overlayFrame, PixelRect(x: 439, y: 36, width: 402, height: 648))
        XCTAssertEqual(layout.overlayFrame.midX, 640, accuracy: 0.5)
        XCTAssertEqual(layout.overlayFrame.midY, 360, accuracy: 0.5)
        // x 439.12 + 0.12 * 401.76 = 487.33 ... 792.67; y 36 + 64.8 = 100.8 ... 372.96.
        XCTAssertEqual(layout.displayWindow, PixelRect(x: 487, y: 101, width: 306, height: 272))
        XCTAssertEqual(layout.fieldBoxes, [], "a generic peripheral has no field boxes")
        XCTAssertNil(layout.box(of: .bloodGlucose))
    }

    func testInsetIsConfigurable() throws {
        let layout = OverlayLayout(previewWidth: 1280, previewHeight: 720, peripheral: try Self.definition(9), insetFraction: 0)
        XCTAssertEqual(layout.inset, 0)
        // Height 720, width 446.4, x 416.8.
        XCTAssertEqual(layout.overlayFrame, PixelRect(x: 417, y: 0, width: 446, height: 720))
        XCTAssertEqual(layout.displayWindow, PixelRect(x: 470, y: 72, width: 340, height: 302))
    }

    func testLandscapeOverlayInPortraitPreviewIsWidthLimitedAndCentred() throws {
        // Peripheral 1: overlay aspect 3.0, display [0.5, 0.2, 0.4, 0.6].
        let layout = OverlayLayout(previewWidth: 720, previewHeight: 1280, peripheral: try Self.definition(1))
        // Width 720 - 72 = 648, height 216, centred at y = 532.
        XCTAssertEqual(layout.overlayFrame, PixelRect(x: 36, y: 532, width: 648, height: 216))
        XCTAssertEqual(layout.overlayFrame.midY, 640, accuracy: 0.5)
        // x 36 + 324 = 360 ... 619.2; y 532 + 43.2 = 575.2 ... 704.8.
        XCTAssertEqual(layout.displayWindow, PixelRect(x: 360, y: 575, width: 259, height: 130))
    }

    func testFieldBoxesMapInsideTheDisplayWindow() throws {
        // Peripheral 103: overlay aspect 0.8, display [0.1, 0.08, 0.8, 0.7], three field boxes.
        let layout = OverlayLayout(previewWidth: 1280, previewHeight: 720, peripheral: try Self.definition(103))
        XCTAssertEqual(layout.overlayFrame, PixelRect(x: 381, y: 36, width: 518, height: 648))
        XCTAssertEqual(layout.displayWindow, PixelRect(x: 433, y: 88, width: 414, height: 453))
        XCTAssertEqual(layout.fieldBoxes.map(\.field), [.systolic, .diastolic, .pulse])
        // Systolic [0.22, 0.04, 0.72, 0.32] of the window (432.64, 87.84, 414.72 x 453.6).
        XCTAssertEqual(layout.box(of: .systolic), PixelRect(x: 524, y: 106, width: 298, height: 145))
        XCTAssertEqual(layout.box(of: .diastolic), PixelRect(x: 524, y: 265, width: 298, height: 145))
        XCTAssertEqual(layout.box(of: .pulse), PixelRect(x: 657, y: 428, width: 165, height: 95))
    }

    func testEveryBuiltInLayoutNestsAtSeveralPreviewSizes() {
        let sizes = [(1280, 720), (720, 1280), (640, 480), (480, 640), (1920, 1080), (500, 500), (321, 97)]
        for definition in Self.catalog.peripherals {
            for (w, h) in sizes {
                let layout = OverlayLayout(previewWidth: w, previewHeight: h, peripheral: definition)
                let what = "peripheral \(definition.id) in \(w)x\(h)"
                let free = PixelRect(x: 0, y: 0, width: w, height: h).insetBy(dx: layout.inset, dy: layout.inset)
                XCTAssertEqual(layout.overlayFrame.intersection(free), layout.overlayFrame, what)
                // Fitted: one side touches the inset (within rounding), the other is centred.
                let touches = abs(layout.overlayFrame.width - free.width) <= 1 || abs(layout.overlayFrame.height - free.height) <= 1
                XCTAssertTrue(touches, what)
                XCTAssertEqual(layout.overlayFrame.midX, Double(w) / 2, accuracy: 1, what)
                XCTAssertEqual(layout.overlayFrame.midY, Double(h) / 2, accuracy: 1, what)
                // Each side is rounded by at most one pixel.
                let (fw, fh) = (Double(layout.overlayFrame.width), Double(layout.overlayFrame.height))
                let aspect = definition.overlay.aspectRatio
                XCTAssertEqual(fw / fh, aspect, accuracy: aspect * (1 / fw + 1 / fh), what)
                XCTAssertFalse(layout.displayWindow.isEmpty, what)
                XCTAssertEqual(layout.displayWindow.intersection(layout.overlayFrame), layout.displayWindow, what)
                XCTAssertEqual(layout.fieldBoxes.count, definition.fields.filter { $0.box != nil }.count, what)
                for box in layout.fieldBoxes {
                    XCTAssertEqual(box.rect.intersection(layout.displayWindow), box.rect, "\(what) \(box.field)")
                }
            }
        }
    }

    func testDegeneratePreviewGivesEmptyRects() throws {
        let layout = OverlayLayout(previewWidth: 0, previewHeight: 0, peripheral: try Self.definition(9))
        XCTAssertTrue(layout.overlayFrame.isEmpty)
        XCTAssertTrue(layout.displayWindow.isEmpty)
    }

    func testConstructedDefinition() {
        let field = FieldDefinition(
            name: .value, digits: 4, box: RelativeRect(x: 0.5, y: 0.5, width: 0.5, height: 0.5),
            units: [UnitVariant(unit: "", decimals: nil, range: nil)])
        let definition = PeripheralDefinition(
            id: 900, type: .numericDisplay, manufacturer: "Test", model: "Square", instructions: "",
            overlay: OverlayGeometry(aspectRatio: 1, display: RelativeRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)),
            polarity: .either, fields: [field])
        let layout = OverlayLayout(previewWidth: 400, previewHeight: 300, peripheral: definition, insetFraction: 0.1)
        XCTAssertEqual(layout.overlayFrame, PixelRect(x: 80, y: 30, width: 240, height: 240))
        XCTAssertEqual(layout.displayWindow, PixelRect(x: 140, y: 90, width: 120, height: 120))
        XCTAssertEqual(layout.fieldBoxes, [OverlayLayout.FieldBox(field: .value, rect: PixelRect(x: 200, y: 150, width: 60, height: 60))])
    }

    // MARK: - Crop

    /// A frame whose pixel at (x, y) encodes its position.
    static func patterned(width: Int, height: Int) -> GrayImage {
        var image = GrayImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width { image[x, y] = UInt8((x * 7 + y * 13) & 0xFF) }
        }
        return image
    }

    func testCropAddsTheMarginAndKeepsThePixels() {
        let frame = Self.patterned(width: 200, height: 150)
        var cropper = DisplayCropper()
        let window = PixelRect(x: 50, y: 40, width: 100, height: 60)
        let rect = cropper.crop(frame, window: window)
        XCTAssertEqual(rect, PixelRect(x: 40, y: 34, width: 120, height: 72), "10 % of 100 and of 60 on each side")
        XCTAssertEqual(cropper.cropRect, rect)
        XCTAssertEqual(cropper.image.width, 120)
        XCTAssertEqual(cropper.image.height, 72)
        XCTAssertEqual(cropper.image, frame.cropped(to: rect))
        XCTAssertEqual(cropper.image[0, 0], frame[40, 34])
        XCTAssertEqual(cropper.image[119, 71], frame[159, 105])
    }

    func testCropIsClippedAtTheFrameEdges() {
        let frame = Self.patterned(width: 100, height: 80)
        var cropper = DisplayCropper()
        // Margins 5 and 3: (0, 57) to (60, 93), clipped to the bottom edge at 80.
        let rect = cropper.crop(frame, window: PixelRect(x: 5, y: 60, width: 50, height: 30))
        XCTAssertEqual(rect, PixelRect(x: 0, y: 57, width: 60, height: 23))
        XCTAssertEqual(cropper.image.width, 60)
        XCTAssertEqual(cropper.image.height, 23)
        XCTAssertEqual(cropper.image[0, 0], frame[0, 57])
        XCTAssertEqual(cropper.image[59, 22], frame[59, 79])

        // Past the top-left corner.
        XCTAssertEqual(cropper.crop(frame, window: PixelRect(x: -20, y: -10, width: 40, height: 30)), PixelRect(x: 0, y: 0, width: 24, height: 23))
        // Entirely outside: nothing.
        XCTAssertEqual(cropper.crop(frame, window: PixelRect(x: 200, y: 10, width: 40, height: 30)), .zero)
        XCTAssertTrue(cropper.image.isEmpty)
        XCTAssertEqual(cropper.crop(frame, window: .zero), .zero)
    }

    func testCropReusesItsBuffer() {
        let big = Self.patterned(width: 320, height: 240)
        var cropper = DisplayCropper(marginFraction: 0)
        cropper.crop(big, window: PixelRect(x: 10, y: 10, width: 300, height: 200))
        let address = cropper.image.pixels.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        let capacity = cropper.image.pixels.capacity
        XCTAssertGreaterThanOrEqual(capacity, 60_000)
        for (i, window) in [
            PixelRect(x: 0, y: 0, width: 100, height: 50), PixelRect(x: 20, y: 30, width: 300, height: 200),
            PixelRect(x: 5, y: 5, width: 1, height: 1), PixelRect(x: 100, y: 100, width: 150, height: 120),
        ].enumerated() {
            let rect = cropper.crop(big, window: window)
            XCTAssertEqual(cropper.image, big.cropped(to: rect), "crop \(i)")
            XCTAssertEqual(cropper.image.pixels.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }, address, "crop \(i)")
            XCTAssertEqual(cropper.image.pixels.capacity, capacity, "crop \(i)")
        }
    }

    func testCropToALayoutAndMapBack() throws {
        let layout = OverlayLayout(previewWidth: 1280, previewHeight: 720, peripheral: try Self.definition(9))
        var cropper = DisplayCropper()
        let frame = Self.patterned(width: 1280, height: 720)
        // Window 306x272+487+101, margins 31 and 27.
        let rect = cropper.crop(frame, layout: layout)
        XCTAssertEqual(rect, PixelRect(x: 456, y: 74, width: 368, height: 326))
        XCTAssertEqual(DisplayCropper.frameRect(fromCrop: PixelRect(x: 10, y: 20, width: 30, height: 40), in: rect),
                       PixelRect(x: 466, y: 94, width: 30, height: 40))
        XCTAssertEqual(DisplayCropper.framePoint(fromCrop: Point(x: 1.5, y: 2.5), in: rect), Point(x: 457.5, y: 76.5))
        XCTAssertEqual(cropper.image[10, 20], frame[466, 94])

        // A frame at half the preview's resolution: the window is scaled to it (306x272+487+101 -> 153x136+244+51).
        let half = Self.patterned(width: 640, height: 360)
        XCTAssertEqual(DisplayCropper.window(of: layout, inFrameWidth: 640, height: 360), PixelRect(x: 244, y: 51, width: 153, height: 136))
        XCTAssertEqual(cropper.crop(half, layout: layout), PixelRect(x: 229, y: 37, width: 183, height: 164))
    }
}
