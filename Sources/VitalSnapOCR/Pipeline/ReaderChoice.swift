/// Which reader reads the lines: the hand-made rules or the trained models. Sendable, so a batch hands it to
/// every worker thread, and each makes its own stages (models share their weights, not their buffers).
public enum ReaderChoice: Sendable {
    case rules
    case model(ReaderModels)

    public enum Kind: String, Sendable, CaseIterable {
        case rules, model
    }

    public var kind: Kind {
        switch self {
        case .rules: .rules
        case .model: .model
        }
    }

    /// Fresh stages for one thread.
    public func stages() -> LineReadingStages {
        switch self {
        case .rules: .rules
        case .model(let models): .model(models)
        }
    }

    /// The reader that measures better, the default of every command: the one with more right readings and
    /// no more wrong ones on the held halves of the real photos and on `Samples/` (README, "Accuracy"), whose
    /// live reading settles on every sample clip the other's does. Today that is still the rule-based reader.
    /// The trained one reads more than twice as many held real photos with fewer wrong readings, more of the
    /// sample stills (103 against 85) and of the clip frames (33 against 30), but its live reading does not
    /// settle on the sample meter's `LO` (3 of the 6 frames read as the word, the others `L1O` or `L.O0`),
    /// where the rules report it; issue 10 stays open until it does.
    public static let preferredKind: Kind = .rules

    /// `preferredKind`, or the rules when its models cannot be loaded.
    public static func preferred() -> ReaderChoice {
        (try? make(preferredKind)) ?? .rules
    }

    /// `kind` with the bundled models; throws when the models are asked for and cannot be loaded.
    public static func make(_ kind: Kind) throws(ReaderModelError) -> ReaderChoice {
        switch kind {
        case .rules: .rules
        case .model: .model(try ReaderModels.bundled())
        }
    }
}
