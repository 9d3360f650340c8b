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
    public func stages() -> ReaderStages {
        switch self {
        case .rules: .rules
        case .model(let models): .model(models)
        }
    }

    /// The reader that measures better, the default of the library and of every command: the trained one. It
    /// reads well over twice as many held real photos as the rules with fewer wrong readings, more of the sample
    /// stills and of the clip frames, none wrong (docs/accuracy.md).
    public static let preferredKind: Kind = .model

    /// The default reader, `preferredKind` with the bundled models; throws when they cannot be loaded (never
    /// falls back to another reader unasked).
    public static func preferred() throws(ReaderModelError) -> ReaderChoice {
        try make(preferredKind)
    }

    /// `kind` with the bundled models; throws when the models are asked for and cannot be loaded.
    public static func make(_ kind: Kind) throws(ReaderModelError) -> ReaderChoice {
        switch kind {
        case .rules: .rules
        case .model: .model(try ReaderModels.bundled())
        }
    }
}
