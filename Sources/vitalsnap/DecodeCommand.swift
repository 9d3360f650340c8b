import ArgumentParser
import Dispatch
import Foundation
import VitalSnapImaging
import VitalSnapOCR

/// Decodes images the way `batch` does and nothing more: the floor `batch`'s speed is measured against.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode images as batch does (same DCT scaling, all cores) and only that, for speed comparisons.",
        discussion: """
            Prints how many images were decoded, their decoded pixels and the failures. Used by \
            Benchmarks/compare-ssocr.sh to tell how much of `batch`'s time is decoding.

            Example:
              vitalsnap decode ../shared/data/photos/fuel-pump --jobs 2
            """)

    @Argument(help: ArgumentHelp("Image files or folders.", valueName: "path")) var paths: [String]
    @Option(name: .shortAndLong, help: ArgumentHelp("Images decoded at once (default: all cores).", valueName: "n")) var jobs: Int?

    mutating func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        let entries = ImageFileCollector.collect(paths).filter { $0.error == nil }
        let options = DisplayReader.Configuration().decoding
        let workers = min(max(1, jobs ?? ProcessInfo.processInfo.activeProcessorCount), max(1, entries.count))
        let tally = Tally()
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while let index = tally.take(below: entries.count) {
                let decoded = try? ImageDecoder.decode(contentsOf: entries[index].path, options: options)
                tally.add(pixels: decoded.map { $0.image.width * $0.image.height })
            }
        }
        let (pixels, failures) = tally.totals
        print("decoded \(entries.count - failures) images, \(pixels) pixels, \(failures) failed")
    }
}

/// The shared counters of the decoding threads.
private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0, pixels = 0, failures = 0

    func take(below count: Int) -> Int? {
        lock.withLock {
            guard next < count else { return nil }
            defer { next += 1 }
            return next
        }
    }

    func add(pixels decoded: Int?) {
        lock.withLock { if let decoded { pixels += decoded } else { failures += 1 } }
    }

    var totals: (pixels: Int, failures: Int) { lock.withLock { (pixels, failures) } }
}
