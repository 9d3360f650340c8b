import Foundation
import VitalSnapImaging
import VitalSnapOCR

/// Writes a training set: `scenes/NNNNNN.jpg` with one line per scene in `scenes.jsonl`, and (unless turned
/// off) line crops `lines/NNNNNN-k.png` listed in `lines.tsv` (`file	text	role	scene`); for one family of
/// medical displays, also the scenes' `labels.tsv` for `vitalsnap eval` (`FamilyLabel`).
///
/// Scenes are rendered on `jobs` threads; scene `i` depends only on the seed and `i` (its crops too), and the
/// list files are written in scene order, so the output is byte-identical whatever the number of jobs.
public enum TrainingSetWriter {
    public struct Options: Sendable {
        public var count: Int
        public var seed: UInt64
        public var jobs: Int
        public var writeLineCrops: Bool
        /// Replace the generator's own files in a folder that is not empty (otherwise that is an error).
        public var force: Bool
        public var parameters: TrainingSceneParameters
        /// Only this family's displays (`TrainingFamily.parameters`), with a `labels.tsv`.
        public var family: TrainingFamily?

        public init(
            count: Int, seed: UInt64, jobs: Int = 1, writeLineCrops: Bool = true, force: Bool = false,
            parameters: TrainingSceneParameters = .standard, family: TrainingFamily? = nil
        ) {
            self.count = count
            self.seed = seed
            self.jobs = jobs
            self.writeLineCrops = writeLineCrops
            self.force = force
            self.parameters = family?.parameters(from: parameters) ?? parameters
            self.family = family
        }
    }

    public struct Summary: Sendable, Equatable {
        public var scenes = 0
        /// Annotated lines per role, and how many of them are readable.
        public var linesPerRole: [String: Int] = [:]
        public var readableLines = 0
        /// Line crops written, and how many of them have an empty text.
        public var crops = 0
        public var emptyCrops = 0
        /// Rows written to `labels.tsv` (family sets), and how many of them say no value may be read (`?`).
        public var labelled = 0
        public var labelledUnreadable = 0
    }

    public enum WriteError: Error, CustomStringConvertible {
        case outputNotEmpty(String)
        case cannotCreate(String, String)
        case cannotWrite(String, String)
        case encoding(String, String)
        /// The family's peripheral could not be found in the built-in catalog.
        case catalog(String)

        public var description: String {
            switch self {
            case .outputNotEmpty(let path): "\(path) exists and is not an empty folder (pass --force to replace the training set in it)"
            case .cannotCreate(let path, let why): "cannot create \(path): \(why)"
            case .cannotWrite(let path, let why): "cannot write \(path): \(why)"
            case .encoding(let path, let why): "cannot encode \(path): \(why)"
            case .catalog(let why): "cannot label the family's scenes: \(why)"
            }
        }
    }

    /// What one scene contributes: its JSON line, its lines.tsv rows, and its counts.
    struct SceneOutput: Sendable {
        var json: String
        var rows: [String]
        var label: FamilyLabel.Row?
        var summary: Summary
    }

    /// Generates the set into `root`. `progress` is called on the calling thread after each scene, in order,
    /// with the number of scenes done.
    public static func write(to root: URL, options: Options, progress: (Int) -> Void = { _ in }) throws -> Summary {
        let labelling: FamilyLabel.Labelling?
        do {
            labelling = try options.family.map { FamilyLabel.Labelling(family: $0, fields: try FamilyLabel.fields(of: $0)) }
        } catch {
            throw WriteError.catalog(String(describing: error))
        }
        try prepare(root, options: options)
        let digits = max(6, String(max(0, options.count - 1)).count)
        var jsonl = try ListFile(root.appendingPathComponent("scenes.jsonl"))
        var tsv = options.writeLineCrops ? try ListFile(root.appendingPathComponent("lines.tsv")) : nil
        try tsv?.append("file\ttext\trole\tscene")
        var labels = options.family == nil ? nil : try ListFile(root.appendingPathComponent("labels.tsv"))
        try labels?.append(FamilyLabel.header)
        var summary = Summary()
        let state = SharedState(count: options.count)
        let workers = min(max(1, options.jobs), max(1, options.count))
        for _ in 0..<workers {
            let thread = Thread {
                var cropper = LineCropper()
                while let index = state.nextIndex() {
                    let result: Result<SceneOutput, WriteError>
                    do {
                        result = .success(try scene(
                            index, root: root, digits: digits, options: options, labelling: labelling, cropper: &cropper))
                    } catch let error as WriteError {
                        result = .failure(error)
                    } catch {
                        result = .failure(.cannotWrite(root.path, String(describing: error)))
                    }
                    state.store(result, at: index)
                }
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        for index in 0..<options.count {
            switch state.waitFor(index) {
            case .failure(let error):
                state.stop()
                throw error
            case .success(let output):
                try jsonl.append(output.json)
                for row in output.rows { try tsv?.append(row) }
                if let label = output.label {
                    try labels?.append(label.line)
                    summary.labelled += 1
                    if label.reading == "?" { summary.labelledUnreadable += 1 }
                }
                summary.scenes += output.summary.scenes
                summary.readableLines += output.summary.readableLines
                summary.crops += output.summary.crops
                summary.emptyCrops += output.summary.emptyCrops
                for (role, n) in output.summary.linesPerRole { summary.linesPerRole[role, default: 0] += n }
            }
            progress(index + 1)
        }
        try jsonl.close()
        try tsv?.close()
        try labels?.close()
        return summary
    }

    /// Renders scene `index`, writes its image and crops, and returns its list entries.
    static func scene(
        _ index: Int, root: URL, digits: Int, options: Options, labelling: FamilyLabel.Labelling?, cropper: inout LineCropper
    ) throws -> SceneOutput {
        let scene = TrainingSceneRenderer.render(seed: options.seed, index: index, parameters: options.parameters)
        let name = String(repeating: "0", count: max(0, digits - String(index).count)) + String(index)
        let file = "scenes/\(name).jpg"
        let jpeg: [UInt8]
        do {
            jpeg = try ImageEncoder.jpeg(rgb: scene.rgb, width: scene.width, height: scene.height, quality: scene.jpegQuality)
        } catch {
            throw WriteError.encoding(file, String(describing: error))
        }
        try write(jpeg, to: root.appendingPathComponent(file))
        var summary = Summary()
        summary.scenes = 1
        for line in scene.lines {
            summary.linesPerRole[line.role.rawValue, default: 0] += 1
            if line.readable { summary.readableLines += 1 }
        }
        var rows: [String] = []
        if options.writeLineCrops {
            // Crops are cut from the photo as the reader will see it: the JPEG decoded to grey.
            let grey: GrayImage
            do {
                grey = try ImageDecoder.decode(bytes: jpeg, options: DecodeOptions(applyExifOrientation: false)).image
            } catch {
                throw WriteError.encoding(file, String(describing: error))
            }
            var random = SampleRandom(seed: TrainingSeeds.mix(TrainingSeeds.scene(options.seed, index: index) ^ 0xC409_5EED))
            var crop = GrayImage(width: 0, height: 0)
            for (k, plan) in LineCropPlanner.plan(scene, parameters: options.parameters, random: &random).enumerated() {
                cropper.crop(grey, quad: plan.quad, into: &crop)
                let cropFile = "lines/\(name)-\(k).png"
                let png: [UInt8]
                do {
                    png = try ImageEncoder.png(crop)
                } catch {
                    throw WriteError.encoding(cropFile, String(describing: error))
                }
                try write(png, to: root.appendingPathComponent(cropFile))
                rows.append("\(cropFile)\t\(plan.text)\t\(plan.role)\t\(file)")
                summary.crops += 1
                if plan.text.isEmpty { summary.emptyCrops += 1 }
            }
        }
        let label = labelling.flatMap { FamilyLabel.row(for: scene, file: file, family: $0.family, fields: $0.fields) }
        return SceneOutput(json: SceneAnnotationJSON.line(for: scene, file: file), rows: rows, label: label, summary: summary)
    }

    /// Refuses a non-empty folder unless `force`, then removes the generator's own files from an earlier run
    /// (nothing else) and creates the folders.
    static func prepare(_ root: URL, options: Options) throws {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: root.path, isDirectory: &isDirectory) {
            let contents = (try? fm.contentsOfDirectory(atPath: root.path)) ?? []
            if !isDirectory.boolValue || !contents.isEmpty {
                guard options.force, isDirectory.boolValue else { throw WriteError.outputNotEmpty(root.path) }
                for name in ["scenes", "lines", "scenes.jsonl", "lines.tsv", "labels.tsv"] where contents.contains(name) {
                    do {
                        try fm.removeItem(at: root.appendingPathComponent(name))
                    } catch {
                        throw WriteError.cannotWrite(root.appendingPathComponent(name).path, String(describing: error))
                    }
                }
            }
        }
        for folder in ["scenes"] + (options.writeLineCrops ? ["lines"] : []) {
            let url = root.appendingPathComponent(folder)
            do {
                try fm.createDirectory(at: url, withIntermediateDirectories: true)
            } catch {
                throw WriteError.cannotCreate(url.path, String(describing: error))
            }
        }
    }

    static func write(_ bytes: [UInt8], to url: URL) throws {
        do {
            try ImageEncoder.write(bytes, to: url.path)
        } catch {
            throw WriteError.cannotWrite(url.path, String(describing: error))
        }
    }

    /// A list written line by line as scenes finish, buffered.
    struct ListFile {
        let url: URL
        let handle: FileHandle
        var buffer: [UInt8] = []

        init(_ url: URL) throws {
            self.url = url
            guard FileManager.default.createFile(atPath: url.path, contents: nil),
                  let handle = try? FileHandle(forWritingTo: url)
            else { throw WriteError.cannotWrite(url.path, "cannot create the file") }
            self.handle = handle
        }

        mutating func append(_ line: String) throws {
            buffer.append(contentsOf: Array(line.utf8))
            buffer.append(0x0A)
            if buffer.count > 1 << 18 { try flush() }
        }

        mutating func flush() throws {
            do {
                try handle.write(contentsOf: buffer)
            } catch {
                throw WriteError.cannotWrite(url.path, String(describing: error))
            }
            buffer.removeAll(keepingCapacity: true)
        }

        mutating func close() throws {
            try flush()
            try? handle.close()
        }
    }

    /// Work queue and result slots shared by the workers and the thread that writes the lists.
    private final class SharedState: @unchecked Sendable {
        private let condition = NSCondition()
        private var next = 0
        private let count: Int
        private var stopped = false
        private var results: [Int: Result<SceneOutput, WriteError>] = [:]

        init(count: Int) { self.count = count }

        func nextIndex() -> Int? {
            condition.lock()
            defer { condition.unlock() }
            guard next < count, !stopped else { return nil }
            next += 1
            return next - 1
        }

        func store(_ result: Result<SceneOutput, WriteError>, at index: Int) {
            condition.lock()
            results[index] = result
            condition.broadcast()
            condition.unlock()
        }

        func waitFor(_ index: Int) -> Result<SceneOutput, WriteError> {
            condition.lock()
            defer { condition.unlock() }
            while results[index] == nil { condition.wait() }
            return results.removeValue(forKey: index)!
        }

        /// No more scenes are handed out (after an error).
        func stop() {
            condition.lock()
            stopped = true
            condition.unlock()
        }
    }
}
