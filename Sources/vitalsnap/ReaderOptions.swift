import ArgumentParser
import VitalSnapOCR

extension ReaderChoice.Kind: ExpressibleByArgument {}

/// `--reader rules|model`: which reader reads the lines (default: the trained one when its models are there).
struct ReaderOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Which reader: model (the trained detector and recognizer) or rules (the hand-made reader). Default: model when its files are installed, else rules.",
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
