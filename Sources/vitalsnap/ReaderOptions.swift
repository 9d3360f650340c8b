import ArgumentParser
import VitalSnapOCR

extension ReaderChoice.Kind: ExpressibleByArgument {}

/// `--reader rules|model`: which reader reads the lines (default: `ReaderChoice.preferredKind`, the one that
/// measures better).
struct ReaderOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Which reader: rules (the hand-made reader) or model (the trained detector and recognizer). Default: \(ReaderChoice.preferredKind.rawValue), the one that measures better on the held-out photos.",
        valueName: "rules|model"))
    var reader: ReaderChoice.Kind?

    func choice() throws -> ReaderChoice {
        guard let reader else { return ReaderChoice.preferred() }
        do {
            return try ReaderChoice.make(reader)
        } catch {
            throw CommandFailure(error.description)
        }
    }
}
