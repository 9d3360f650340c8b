import ArgumentParser
import Foundation
import VitalSnapSamples

extension TrainingFamily: ExpressibleByArgument {}

/// `vitalsnap samples training-set`: unlimited labelled synthetic scenes and line crops for the reader's
/// line detector and line recognizer (Training/README.md). Its own module so that `vitalsnap-scenes`, the same
/// command alone, links only the generator: the small renderer that a training machine without Swift carries
/// (Training/gpu/README.md).
public struct TrainingSetCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "training-set",
        abstract: "(developer) Write synthetic training scenes with their annotations and line crops.",
        discussion: """
            Renders COUNT random colour scenes (glucose meters, blood pressure monitors, thermometers, scales, \
            oximeters, electricity meters, fuel pumps, panel meters, multimeters; room photos, close-ups, \
            display, line and field crops, and scenes with no display) into OUT:

              scenes/NNNNNN.jpg   the photos
              scenes.jsonl        one JSON object per scene: lines, display quad, style
              lines/NNNNNN-K.png  32-row line crops (Training/README.md)
              lines.tsv           file, text, role, scene of each crop

            A line is annotated with its role, text, readability, quad, digit height and polarity; crops of \
            unit labels, icons and background have an empty text. Scene i depends only on the seed and i, so \
            the output is the same bytes whatever --jobs is. OUT must be empty or absent unless --force, \
            which replaces the generator's own files there. Write the data outside the repository: it is \
            never committed. Progress goes to stderr.

            --family renders one family of medical displays only (bp-lcd, bp-color, glucose, thermometer, \
            scale, oximeter), each scene a photo of the whole device or its display, and also writes \
            labels.tsv (file, reading, match, peripheral, unit) so that `vitalsnap eval OUT` measures the \
            reader on that family; a reading of ? means no value may be read (glare, the frame cuts it). Give \
            such a set a seed no training set uses.

            Examples:
              vitalsnap samples training-set --count 10000 --seed 1 /tmp/training
              vitalsnap samples training-set --count 200 --seed 7 -j 1 --no-lines /tmp/s
              vitalsnap samples training-set --count 500 --seed 2 --force /tmp/training
              vitalsnap samples training-set --family bp-lcd --count 200 --seed 900001 --no-lines /tmp/bp-lcd
            """
    )

    @Option(help: ArgumentHelp("Number of scenes.", valueName: "n")) var count: Int
    @Option(help: ArgumentHelp("Seed of the set (scene i depends on it and i only).", valueName: "n")) var seed: UInt64
    @Option(name: .shortAndLong, help: ArgumentHelp("Scenes rendered at once (default: all cores).", valueName: "n")) var jobs: Int?
    @Flag(help: "Write only the scenes and scenes.jsonl, no line crops.") var noLines = false
    @Option(help: ArgumentHelp(
        "Only this family of medical displays, with a labels.tsv for vitalsnap eval.", valueName: "family"))
    var family: TrainingFamily?
    @Flag(help: "Write into a folder that is not empty, replacing an earlier set's files there.") var force = false
    @Argument(help: ArgumentHelp("Folder to write to.", valueName: "OUT")) var output: String

    public init() {}

    public mutating func validate() throws {
        if count < 0 { throw ValidationError("--count must not be negative") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    public func run() throws {
        let jobs = self.jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let options = TrainingSetWriter.Options(
            count: count, seed: seed, jobs: jobs, writeLineCrops: !noLines, force: force, family: family)
        let start = Date()
        let every = max(1, min(500, count / 20))
        let summary: TrainingSetWriter.Summary
        do {
            summary = try TrainingSetWriter.write(to: URL(fileURLWithPath: output), options: options) { done in
                guard done % every == 0 || done == count else { return }
                let elapsed = Date().timeIntervalSince(start)
                FileHandle.standardError.write(Data((String(
                    format: "training-set: %d/%d scenes, %.1f scenes/s, %.0f s", done, count,
                    Double(done) / max(1e-9, elapsed), elapsed) + "\n").utf8))
            }
        } catch {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            throw ExitCode.failure
        }
        let seconds = Date().timeIntervalSince(start)
        let roles = ["value", "clock", "date", "memory", "unit", "icon"]
            .map { "\($0) \(summary.linesPerRole[$0] ?? 0)" }.joined(separator: ", ")
        print("wrote \(summary.scenes) scenes to \(output) (seed \(seed), \(jobs) job\(jobs == 1 ? "" : "s"))")
        print("lines: \(roles); \(summary.readableLines) readable")
        if !noLines { print("crops: \(summary.crops), \(summary.emptyCrops) with an empty text") }
        if let family {
            print("labels.tsv: \(summary.labelled) \(family.rawValue) scenes, \(summary.labelledUnreadable) of them labelled ? (no value may be read)")
        }
        print(String(format: "%.1f s, %.1f scenes/s", seconds, Double(summary.scenes) / max(1e-9, seconds)))
    }
}
