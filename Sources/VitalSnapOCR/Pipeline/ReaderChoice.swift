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

    /// The better reader available: the trained one when its models are bundled, else the rules.
    public static func preferred() -> ReaderChoice {
        (try? ReaderModels.bundled()).map(ReaderChoice.model) ?? .rules
    }

    /// `kind` with the bundled models; throws when the models are asked for and cannot be loaded.
    public static func make(_ kind: Kind) throws(ReaderModelError) -> ReaderChoice {
        switch kind {
        case .rules: .rules
        case .model: .model(try ReaderModels.bundled())
        }
    }
}
