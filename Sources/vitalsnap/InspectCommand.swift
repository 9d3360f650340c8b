import ArgumentParser
import Foundation
import VitalSnapImaging
import VitalSnapOCR

struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show every text line the reader finds in an image (for extending the reader).",
        discussion: """
            Reads each image as `batch` does (the same stages: locate, rectify, recognize, assemble, glare, \
            orientation) and prints the result, then every line of the last orientation read with its \
            characters, confidence, role and position. With --dump, writes the lines found drawn on the frame \
            and the rectified image of each line as PNG, so you can see what the recognizer saw.

            Examples:
              vitalsnap inspect photo.jpg --dump /tmp/lines
              vitalsnap inspect meter.jpg -p 9 --reader rules --verbose
            """
    )

    @Argument(help: "Image files (JPEG, PNG, WebP or HEIF/HEIC).") var files: [String]
    @Option(help: "Folder to write the rectified line images to.") var dump: String?
    @Flag(name: .shortAndLong, help: "Also list the character candidates and detected lines, and trace the recognizer's decisions on stderr.") var verbose = false
    @OptionGroup var readerOptions: ReaderOptions
    @Option(name: .shortAndLong, help: ArgumentHelp("OCR peripheral id to read for (default 100, any numeric display).", valueName: "id"))
    var peripheral = 100
    @Option(help: unitHelp) var unit: String?
    @OptionGroup var catalogOption: CatalogOption

    func run() throws {
        if verbose { LogOptions.bootstrap(categories: ["ocr"], level: .trace) }
        let setting: ReaderSetting
        do {
            setting = try ReaderSetting.resolve(peripheral: peripheral, unit: unit, catalog: try catalogOption.catalog())
        } catch {
            throw ValidationError(String(describing: error))
        }
        let choice = try readerOptions.choice()
        print("reader: \(choice.kind.rawValue), peripheral \(setting.peripheral.id)")
        var configuration = DisplayReader.Configuration()
        configuration.keepsRectifiedLines = dump != nil
        var photo = DisplayReader(peripheral: setting.peripheral, unit: setting.unit, reader: choice, configuration: configuration)
        if let dump { try FileManager.default.createDirectory(atPath: dump, withIntermediateDirectories: true) }
        for file in files {
            let result = photo.read(file: file)
            print("\(file): \(result.imageWidth)x\(result.imageHeight) \(result.status.rawValue)"
                + (result.reading?.readingString ?? result.reading?.word).map { " \($0)" }.orEmpty
                + (result.message.map { " (\($0))" }).orEmpty
                + (result.warnings.isEmpty ? "" : " [\(result.warnings.joined(separator: "; "))]"))
            guard result.status != .error else { continue }
            let decoded = try ImageDecoder.decode(contentsOf: file, options: configuration.decoding)
            // The lines of the photo as it was read: in the frame it was turned to, if it was.
            let image = decoded.image.applying(result.readOrientation)
            if result.readOrientation != .up {
                print("  read turned: \(result.readOrientation); lines below in that frame")
            }
            let lines: [RecognizedLine]
            do { lines = try photo.readLines(image) } catch { throw CommandFailure(error.description) }
            let trace = photo.trace
            let candidates = (photo.stages.locator as? RuleLineLocator)?.candidates ?? []
            if verbose {
                for c in candidates.sorted(by: { ($0.level, $0.box.minX) < ($1.level, $1.box.minX) }) {
                    print("  candidate L\(c.level) \(c.polarity.rawValue) \(c.box) fill=\(String(format: "%.2f", c.fill))")
                }
                for entry in trace.log { print("  read " + entry) }
                for l in trace.located {
                    print(String(format: "  line h=%.0f angle=%.3f n=%d %@ %@ %@", l.digitHeight, l.angle, l.candidates.count,
                                 l.polarity.rawValue, l.role?.rawValue ?? "-", l.boundingBox.description))
                }
            }
            for (i, line) in lines.enumerated() {
                let chars = line.characters.map { "\($0.character)\(String(format: "%.2f", $0.confidence))" }
                print(String(format: "  #%d h=%.0f conf=%.2f contrast=%d %@ %@ gap=%@ box=%@  %@", i, line.digitHeight, line.confidence,
                             line.contrast, line.polarity.rawValue, line.role?.rawValue ?? "-", line.hasGap ? "yes" : "no",
                             line.boundingBox.description, line.text) + "   " + chars.joined(separator: " "))
            }
            if let dump, choice.kind == .model {
                let base = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
                var marked = photo.workingImage
                for l in trace.located { Self.outline(l.boundingBox.insetBy(dx: -2, dy: -2), in: &marked, value: 0) }
                try ImageEncoder.write(try ImageEncoder.png(marked), to: "\(dump)/\(base)-lines.png")
                for (i, r) in trace.rectified.enumerated() {
                    try ImageEncoder.write(try ImageEncoder.png(r.image), to: "\(dump)/\(base)-line\(i).png")
                }
            } else if let dump {
                let base = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
                for level in 0..<4 {
                    var marked = decoded.image
                    for c in candidates where c.level == level {
                        Self.outline(c.box, in: &marked, value: c.polarity == .dark ? 0 : 255)
                    }
                    try ImageEncoder.write(try ImageEncoder.png(marked), to: "\(dump)/\(base)-candidates-L\(level).png")
                }
                var marked = decoded.image
                for entry in trace.log { print("  read " + entry) }
                for l in trace.located { Self.outline(l.boundingBox.insetBy(dx: -2, dy: -2), in: &marked, value: 0) }
                try ImageEncoder.write(try ImageEncoder.png(marked), to: "\(dump)/\(base)-lines.png")
                var pyramid = ImagePyramid()
                pyramid.update(from: decoded.image, maximumLevels: 4)
                for (level, image) in pyramid.levels.enumerated() {
                    var dark = InkMask(width: 0, height: 0), light = InkMask(width: 0, height: 0)
                    var scratch = InkMask(width: 0, height: 0)
                    let finder = CharacterCandidateFinder()
                    finder.configuration.threshold.apply(image, integral: IntegralImage(image), dark: &dark, light: &light)
                    finder.configuration.closing.apply(&dark, scratch: &scratch)
                    let png = GrayImage(width: dark.width, height: dark.height, pixels: dark.pixels.map { $0 == 0 ? 255 : 0 })
                    try ImageEncoder.write(try ImageEncoder.png(png), to: "\(dump)/\(base)-L\(level)-dark.png")
                    try ImageEncoder.write(try ImageEncoder.png(image), to: "\(dump)/\(base)-L\(level).png")
                }
                for (i, r) in trace.rectified.enumerated() {
                    var recognizer = RuleCharacterRecognizer()
                    if verbose { print("  line \(i): (its recognition traced on stderr)") }
                    _ = recognizer.recognize(r)
                    let m = recognizer.mask
                    let both = GrayImage(width: r.image.width, height: r.image.height * 2,
                                         pixels: r.image.pixels + m.pixels.map { $0 == 0 ? 255 : 0 })
                    try ImageEncoder.write(try ImageEncoder.png(both), to: "\(dump)/\(base)-line\(i).png")
                }
            }
        }
    }

    static func outline(_ r: PixelRect, in image: inout GrayImage, value: UInt8) {
        let box = r.intersection(image.bounds)
        guard !box.isEmpty else { return }
        for x in box.minX..<box.maxX { image[x, box.minY] = value; image[x, box.maxY - 1] = value }
        for y in box.minY..<box.maxY { image[box.minX, y] = value; image[box.maxX - 1, y] = value }
    }
}

extension Optional where Wrapped == String {
    var orEmpty: String { self ?? "" }
}
