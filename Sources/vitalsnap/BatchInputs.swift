import VitalSnapOCR

/// What `batch` reads, one entry at a time: the paths given as arguments, then those of `--paths-from`,
/// expanded to image files (`ImageFileCollector.stream`), without the entries of other shards (`--shard`)
/// and those the resume file already has (`--resume`), which are counted.
final class BatchInputs: Sequence, IteratorProtocol {
    private var entries: ImageFileCollector.Stream<AnyIterator<String>>
    private let lines: PathLines?
    private let shard: BatchShard?
    private let done: Set<String>
    /// Entries left to the other shards.
    private(set) var outsideShard = 0
    /// Entries of this shard already in the resume file.
    private(set) var skipped = 0

    init(arguments: [String], lines: PathLines?, shard: BatchShard?, done: Set<String>) {
        var arguments = arguments.makeIterator()
        let paths = AnyIterator<String> { arguments.next() ?? lines?.next() }
        entries = ImageFileCollector.stream(paths)
        self.lines = lines
        self.shard = shard
        self.done = done
    }

    /// Why the list of paths stopped early (a read error), if it did.
    var pathListError: String? { lines?.readError }

    func next() -> ImageFileCollector.Entry? {
        while let entry = entries.next() {
            if let shard, !shard.contains(entry.path) {
                outsideShard += 1
                continue
            }
            if done.contains(entry.path) {
                skipped += 1
                continue
            }
            return entry
        }
        return nil
    }
}
