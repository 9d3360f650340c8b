import Foundation
import VitalSnapImaging
import VitalSnapOCR

/// Writes the project's sample set: stills per design, glare and word stills, and clips, each folder with
/// its `labels.tsv`, plus a README.
///
/// The set is deterministic: the same seed and options give byte-identical files on every run. Every image
/// carries its own seed in the `source` column, so any one can be regenerated alone with
/// `SceneGenerator.randomStill` (stills) or the `ClipGenerator` function named in the clip's README line.
public enum SampleSetWriter {
    public struct Options: Sendable {
        /// Stills per design folder.
        public var stillsPerDesign: Int = 18
        /// Every n-th still is saved as PNG, the rest as JPEG.
        public var pngEvery: Int = 18
        public var jpegQuality: Int = 85
        /// Landscape frame size of stills; some stills are portrait (the two swapped).
        public var stillWidth: Int = 640
        public var stillHeight: Int = 480
        /// Images in `stills/glare-over-digits` (cycling through the designs).
        public var glareOverDigitsCount: Int = 6
        /// Stills per word and glucose design in `stills/words`.
        public var wordStillsPerDesign: Int = 1
        public var clipWidth: Int = 320
        public var clipHeight: Int = 240
        /// Also write the README.
        public var writeReadme: Bool = true

        public init() {}

        /// A tiny set for tests.
        public static var tiny: Options {
            var o = Options()
            o.stillsPerDesign = 2
            o.pngEvery = 2
            o.stillWidth = 160
            o.stillHeight = 120
            o.glareOverDigitsCount = 1
            o.clipWidth = 96
            o.clipHeight = 72
            o.writeReadme = false
            return o
        }
    }

    /// What was written.
    public struct Summary: Sendable {
        /// Folder path relative to the root -> its label rows.
        public var folders: [String: [LabelRow]] = [:] {
            didSet { order += folders.keys.filter { !order.contains($0) }.sorted() }
        }
        /// Folder paths in the order they were written.
        public private(set) var order: [String] = []
        public var fileCount: Int { folders.values.reduce(0) { $0 + $1.count } }
    }

    public enum WriteError: Error, CustomStringConvertible {
        case noDesigns
        case cannotCreate(String, String)
        case cannotWrite(String, String)

        public var description: String {
            switch self {
            case .noDesigns: "the catalog has none of the sample designs (ids 101-106)"
            case .cannotCreate(let path, let why): "cannot create folder \(path): \(why)"
            case .cannotWrite(let path, let why): "cannot write \(path): \(why)"
            }
        }
    }

    /// Writes the whole set under `root` (created if needed): `stills/<design>/`, `stills/glare-over-digits/`,
    /// `stills/words/`, `clips/<clip>/`, each with `labels.tsv`, and `README.md`. Files of the same names are
    /// replaced and stale images in those folders removed; nothing else under `root` is touched.
    ///
    /// - Parameters:
    ///   - catalog: supplies the definitions 101-106 the designs are drawn from.
    ///   - seed: the master seed (the checked-in set uses `defaultSeed`).
    ///   - progress: called with a short line per folder written.
    @discardableResult
    public static func writeAll(
        to root: URL, catalog: PeripheralCatalog, seed: UInt64 = defaultSeed, options: Options = Options(),
        progress: (String) -> Void = { _ in }
    ) throws -> Summary {
        let designs = MeterDesign.all(in: catalog)
        guard !designs.isEmpty else { throw WriteError.noDesigns }
        var master = SampleRandom(seed: seed)
        var summary = Summary()

        // Each folder gets its own generator forked from the master in a fixed order, so changing the count
        // of one folder does not change the images of another.
        for design in designs {
            var random = master.fork()
            var rows: [LabelRow] = []
            var images: [(String, [UInt8])] = []
            for i in 0..<options.stillsPerDesign {
                let sampleSeed = random.next()
                let scene = SceneGenerator.randomStill(
                    design, seed: sampleSeed, width: options.stillWidth, height: options.stillHeight, allowPortrait: true)
                let png = options.pngEvery > 0 && i % options.pngEvery == options.pngEvery - 1
                let name = "\(design.folderName)-\(two(i + 1)).\(png ? "png" : "jpg")"
                images.append((name, try encode(scene.image, png: png, quality: options.jpegQuality)))
                rows.append(row(name, scene: scene, design: design, seed: sampleSeed))
            }
            try writeFolder("stills/\(design.folderName)", images: images, rows: rows, under: root)
            summary.folders["stills/\(design.folderName)"] = rows
            progress("stills/\(design.folderName): \(rows.count) images")
        }

        do {
            var random = master.fork()
            var rows: [LabelRow] = []
            var images: [(String, [UInt8])] = []
            for i in 0..<options.glareOverDigitsCount {
                let design = designs[i % designs.count]
                let sampleSeed = random.next()
                let scene = SceneGenerator.randomStill(
                    design, seed: sampleSeed, width: options.stillWidth, height: options.stillHeight, glareOverDigits: true)
                let name = "glare-\(design.folderName)-\(two(i / designs.count + 1)).jpg"
                images.append((name, try encode(scene.image, png: false, quality: options.jpegQuality)))
                rows.append(row(name, scene: scene, design: design, seed: sampleSeed, extra: "shows \(scene.reading)"))
            }
            try writeFolder("stills/glare-over-digits", images: images, rows: rows, under: root)
            summary.folders["stills/glare-over-digits"] = rows
            progress("stills/glare-over-digits: \(rows.count) images")
        }

        do {
            var random = master.fork()
            var rows: [LabelRow] = []
            var images: [(String, [UInt8])] = []
            for design in designs where design.definition.type == .glucoseMeter {
                for word in DisplayWord.allCases {
                    for k in 0..<options.wordStillsPerDesign {
                        let sampleSeed = random.next()
                        let scene = SceneGenerator.randomStill(
                            design, seed: sampleSeed, width: options.stillWidth, height: options.stillHeight, word: word)
                        let suffix = options.wordStillsPerDesign > 1 ? "-\(two(k + 1))" : ""
                        let name = "\(design.folderName)-\(word.rawValue.lowercased())\(suffix).jpg"
                        images.append((name, try encode(scene.image, png: false, quality: options.jpegQuality)))
                        rows.append(row(name, scene: scene, design: design, seed: sampleSeed))
                    }
                }
            }
            try writeFolder("stills/words", images: images, rows: rows, under: root)
            summary.folders["stills/words"] = rows
            progress("stills/words: \(rows.count) images")
        }

        var clipRandom = master.fork()
        for clip in clips(designs: designs, random: &clipRandom, options: options) {
            var rows: [LabelRow] = []
            var images: [(String, [UInt8])] = []
            for (i, frame) in clip.frames.enumerated() {
                let name = "frame-\(String(repeating: "0", count: max(0, 4 - String(i + 1).count)))\(i + 1).png"
                images.append((name, try encode(frame.image, png: true, quality: options.jpegQuality)))
                rows.append(LabelRow(
                    file: name, reading: frame.expectedReading, device: clip.design.deviceDescription,
                    source: "generated:seed=\(clip.seed)",
                    notes: (["frame=\(i + 1)", "shows=\(frame.shown)"] + frame.notes).joined(separator: " "),
                    peripheral: clip.design.definition.id, unit: ReadingGenerator.primaryUnit(of: clip.design.definition)))
            }
            try writeFolder("clips/\(clip.name)", images: images, rows: rows, under: root)
            summary.folders["clips/\(clip.name)"] = rows
            progress("clips/\(clip.name): \(rows.count) frames (\(clip.summary))")
        }

        if options.writeReadme {
            try write(Array(readme(summary: summary, seed: seed, options: options).utf8), to: root.appendingPathComponent("README.md"))
        }
        return summary
    }

    /// The seed of the checked-in set.
    public static let defaultSeed: UInt64 = 20_240_601

    /// The clips of the set: settling, alternating, LO, and a mg/dL meter for the unit-mismatch test.
    static func clips(designs: [MeterDesign], random: inout SampleRandom, options: Options) -> [Clip] {
        let (w, h) = (options.clipWidth, options.clipHeight)
        let byID = Dictionary(uniqueKeysWithValues: designs.map { ($0.definition.id, $0) })
        let mgdl = byID[101] ?? designs[0]
        let mmol = byID[102] ?? designs[0]
        var clips: [Clip] = []
        clips.append(ClipGenerator.settling(mgdl, seed: random.next(), width: w, height: h))
        clips.append(ClipGenerator.alternating(mmol, seed: random.next(), width: w, height: h))
        clips.append(ClipGenerator.word(.lo, design: mgdl, seed: random.next(), width: w, height: h))
        clips.append(ClipGenerator.steady(
            mgdl, seed: random.next(), name: "mgdl-\(mgdl.folderName)",
            summary: "a mg/dL meter: reading it as mmol/L must be refused", width: w, height: h))
        return clips
    }

    static func row(_ file: String, scene: Scene, design: MeterDesign, seed: UInt64, extra: String? = nil) -> LabelRow {
        let quad = scene.displayQuad.points.map { "\(Int($0.x.rounded())),\(Int($0.y.rounded()))" }.joined(separator: ";")
        let notes = (extra.map { [$0] } ?? []) + scene.notes + ["size=\(scene.image.width)x\(scene.image.height)", "display-quad=\(quad)"]
        return LabelRow(
            file: file, reading: scene.expectedReading, device: design.deviceDescription, source: "generated:seed=\(seed)",
            notes: notes.joined(separator: " "), peripheral: design.definition.id,
            unit: ReadingGenerator.primaryUnit(of: design.definition))
    }

    static func encode(_ image: GrayImage, png: Bool, quality: Int) throws -> [UInt8] {
        png ? try ImageEncoder.png(image) : try ImageEncoder.jpeg(image, quality: quality)
    }

    static func writeFolder(_ relative: String, images: [(String, [UInt8])], rows: [LabelRow], under root: URL) throws {
        let folder = root.appendingPathComponent(relative)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw WriteError.cannotCreate(folder.path, String(describing: error))
        }
        for (name, bytes) in images { try write(bytes, to: folder.appendingPathComponent(name)) }
        try write(Array(LabelRow.tsv(rows).utf8), to: folder.appendingPathComponent("labels.tsv"))
        // Images left over from an earlier, larger set would have no label row: remove them (only images,
        // only in the folders this writer owns).
        let keep = Set(images.map(\.0))
        let present = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in present where !keep.contains(name) && (name.hasSuffix(".jpg") || name.hasSuffix(".png")) {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    static func write(_ bytes: [UInt8], to url: URL) throws {
        do {
            try ImageEncoder.write(bytes, to: url.path)
        } catch {
            throw WriteError.cannotWrite(url.path, String(describing: error))
        }
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
}
