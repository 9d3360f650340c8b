import Foundation

/// Which peripheral a photo is read for, and in which unit.
public struct ReaderSetting: Sendable, Hashable {
    public var peripheral: PeripheralDefinition
    /// The unit handed to the reading assembler; nil for the field's default (or whichever unit fits).
    public var unit: String?

    public init(peripheral: PeripheralDefinition, unit: String? = nil) {
        self.peripheral = peripheral
        self.unit = unit
    }

    /// What identifies a `DisplayReader`: one is kept per key on each worker thread.
    public struct Key: Hashable, Sendable {
        public var peripheral: Int
        public var unit: String?
    }

    public var key: Key { Key(peripheral: peripheral.id, unit: unit) }

    /// Looks up `id` in `catalog` and checks `unit` against its measurement fields.
    ///
    /// The unit is given as a user types it (`mmol`, `mg/dl`, `C`) and canonicalized. A unit every measurement
    /// field offers selects that variant (`mmol/L` on a glucose meter). A unit only some fields offer (`mmHg` on
    /// a blood pressure monitor, whose pulse is in bpm) is accepted but selects nothing, since there is nothing
    /// to choose: the reading gets each field's own unit. A unit no field offers is an error, unless `lenient`,
    /// when it is dropped (a label file's unit column read for a peripheral given on the command line).
    public static func resolve(
        peripheral id: Int, unit: String?, catalog: PeripheralCatalog, lenient: Bool = false
    ) throws(ReaderSettingError) -> ReaderSetting {
        guard let definition = catalog[id] else {
            throw .unknownPeripheral(id, known: catalog.peripherals.map(\.id))
        }
        guard let unit, !unit.isEmpty else { return ReaderSetting(peripheral: definition, unit: nil) }
        let canonical = canonicalUnit(unit)
        let fields = definition.measurementFields
        let offering = fields.filter { $0.unit(named: canonical) != nil }
        if offering.isEmpty {
            if lenient { return ReaderSetting(peripheral: definition, unit: nil) }
            let known = Set(fields.flatMap { $0.units.map(\.unit) }).filter { !$0.isEmpty }.sorted()
            throw .unitNotShown(id, name: definition.name, unit: unit, known: known)
        }
        return ReaderSetting(peripheral: definition, unit: offering.count == fields.count ? canonical : nil)
    }

    /// Spellings people type for units, mapped to the names the definitions use (`mmol` -> `mmol/L`).
    public static func canonicalUnit(_ text: String) -> String {
        switch text.lowercased().replacingOccurrences(of: " ", with: "") {
        case "mg", "mg/dl", "mgdl", "mg-dl": "mg/dL"
        case "mmol", "mmol/l", "mmoll", "mmol-l": "mmol/L"
        case "c", "°c", "celsius", "degc": "°C"
        case "f", "°f", "fahrenheit", "degf": "°F"
        case "kg", "kilograms": "kg"
        case "lb", "lbs", "pounds": "lb"
        case "mmhg": "mmHg"
        case "bpm": "bpm"
        default: text
        }
    }
}

public enum ReaderSettingError: Error, CustomStringConvertible, Equatable {
    case unknownPeripheral(Int, known: [Int])
    case unitNotShown(Int, name: String, unit: String, known: [String])

    public var description: String {
        switch self {
        case .unknownPeripheral(let id, let known):
            CatalogError.unknownPeripheral(id, known: known).description
        case .unitNotShown(let id, let name, let unit, let known):
            "peripheral \(id) (\(name)) does not show \(unit)"
                + (known.isEmpty ? "" : "; it shows \(known.joined(separator: ", "))")
        }
    }
}

/// Reads many photos on several threads and hands the results back in input order as soon as each one and all
/// before it are done, so output streams and memory stays flat however large the folder.
///
/// Each entry can be read for its own peripheral and unit (a labelled folder mixing devices); every worker
/// thread keeps one `DisplayReader` per peripheral and unit it has met, with its buffers.
public struct BatchRunner: Sendable {
    public var jobs: Int
    /// The rules or the trained models (`ReaderChoice.preferred()` is every command's default).
    public var reader: ReaderChoice
    private let setting: @Sendable (Int) -> ReaderSetting

    /// Every entry read for the same peripheral and unit.
    public init(peripheral: PeripheralDefinition, unit: String?, jobs: Int, reader: ReaderChoice) {
        let shared = ReaderSetting(peripheral: peripheral, unit: unit)
        self.init(jobs: jobs, reader: reader) { _ in shared }
    }

    /// Entry `i` read with `settings[i]`; `settings` must have one element per entry given to `run`.
    public init(settings: [ReaderSetting], jobs: Int, reader: ReaderChoice) {
        self.init(jobs: jobs, reader: reader) { settings[$0] }
    }

    /// Entry `i` read with `setting(i)` (called on the worker threads).
    public init(jobs: Int, reader: ReaderChoice, setting: @escaping @Sendable (Int) -> ReaderSetting) {
        self.jobs = max(1, jobs)
        self.reader = reader
        self.setting = setting
    }

    /// Reads one entry with `reader`: an entry that could not be listed is an error without reading.
    func read(_ entry: ImageFileCollector.Entry, with reader: inout DisplayReader) -> PhotoResult {
        if let error = entry.error {
            return PhotoResult(file: entry.path, failure: error)
        }
        // A JPEG whose data ends early is an error (`DisplayReader.Configuration.cutShortIsError`).
        return reader.read(file: entry.path)
    }

    /// How many entries may be read ahead of the one waiting to be delivered, per job: bounds the results
    /// held when one photo takes long while the others go on.
    public static let readAheadPerJob = 8

    /// What the delivering side wants after a result.
    public enum Next: Sendable {
        case goOn
        /// Take no more entries (the output cannot be written, say): those being read are finished and
        /// dropped, `run` returns.
        case stop
    }

    /// Calls `deliver` on the calling thread, once per entry, in order.
    public func run(_ entries: [ImageFileCollector.Entry], deliver: (Int, PhotoResult) -> Void) {
        run(streaming: entries) { index, result in
            deliver(index, result)
            return .goOn
        }
    }

    /// Reads entries as `entries` yields them (on the worker threads, one at a time) and calls `deliver` on the
    /// calling thread, once per entry, in order, as soon as it and all before it are read, until it says
    /// `.stop`. At most `jobs * readAheadPerJob` entries are taken ahead of delivery, so memory stays flat
    /// however many there are. Returns how many results were delivered.
    @discardableResult
    public func run<Entries: Sequence<ImageFileCollector.Entry>>(
        streaming entries: Entries, deliver: (Int, PhotoResult) -> Next
    ) -> Int {
        let state = SharedState(entries: AnyIterator(entries.makeIterator()), window: jobs * Self.readAheadPerJob)
        let runner = self
        // No more threads than entries when their number is known (an array); all the jobs for a stream.
        let known = entries.underestimatedCount
        for _ in 0..<(known > 0 ? min(jobs, known) : jobs) {
            let thread = Thread {
                var readers: [ReaderSetting.Key: DisplayReader] = [:]
                while let (index, entry) = state.take() {
                    let result: PhotoResult
                    if let error = entry.error {
                        result = PhotoResult(file: entry.path, failure: error)
                    } else {
                        let setting = runner.setting(index)
                        result = runner.read(
                            entry, with: &readers[setting.key, default: DisplayReader(peripheral: setting.peripheral, unit: setting.unit, reader: runner.reader)])
                    }
                    state.store(result, at: index)
                }
            }
            thread.stackSize = 4 << 20
            thread.start()
        }
        var index = 0
        while let result = state.waitFor(index) {
            index += 1
            if case .stop = deliver(index - 1, result) {
                state.stop()
                break
            }
        }
        return index
    }

    /// The entries not yet taken, the results not yet delivered, shared by the workers and the delivering
    /// thread: the results and counts under one lock, the drawing of entries under another.
    private final class SharedState: @unchecked Sendable {
        private let condition = NSCondition()
        /// Held by the one worker drawing the next entry.
        private let source = NSLock()
        private var entries: AnyIterator<ImageFileCollector.Entry>
        private let window: Int
        /// Entries taken so far; all of them once `ended`.
        private var taken = 0
        private var ended = false
        /// The next index to deliver.
        private var delivered = 0
        private var results: [Int: PhotoResult] = [:]

        init(entries: AnyIterator<ImageFileCollector.Entry>, window: Int) {
            self.entries = entries
            self.window = max(1, window)
        }

        /// The next entry and its index, waiting while the window is full; nil when there are no more.
        ///
        /// The entries are drawn with only `source` held, one taker at a time: drawing may wait on a pipe (paths
        /// from stdin), and meanwhile finished results must still be stored and delivered.
        func take() -> (Int, ImageFileCollector.Entry)? {
            source.lock()
            defer { source.unlock() }
            condition.lock()
            while !ended && taken - delivered >= window { condition.wait() }
            let stopped = ended
            condition.unlock()
            if stopped { return nil }
            let next = entries.next()
            condition.lock()
            defer { condition.unlock() }
            guard !ended, let entry = next else {
                if !ended {
                    ended = true
                    condition.broadcast()
                }
                return nil
            }
            taken += 1
            return (taken - 1, entry)
        }

        func store(_ result: PhotoResult, at index: Int) {
            condition.lock()
            results[index] = result
            condition.broadcast()
            condition.unlock()
        }

        /// No more entries are taken (those taken are still read, their results dropped).
        func stop() {
            condition.lock()
            ended = true
            condition.broadcast()
            condition.unlock()
        }

        /// The result of entry `index` once it is read; nil when the entries ended before it.
        func waitFor(_ index: Int) -> PhotoResult? {
            condition.lock()
            defer { condition.unlock() }
            while results[index] == nil && !(ended && index >= taken) { condition.wait() }
            guard let result = results.removeValue(forKey: index) else { return nil }
            delivered = index + 1
            condition.broadcast()
            return result
        }
    }
}
