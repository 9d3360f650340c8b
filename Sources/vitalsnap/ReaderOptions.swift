import ArgumentParser
import Foundation
import VitalSnapOCR

extension ReaderChoice.Kind: ExpressibleByArgument {}

/// `--reader rules|model`: which reader reads the lines (default: `ReaderChoice.preferredKind`, the one that
/// measures better).
struct ReaderOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Which reader: rules (the hand-made reader) or model (the trained detector and recognizer). Default: \(ReaderChoice.preferredKind.rawValue), the one that measures better on the held-out photos.",
        valueName: "rules|model"))
    var reader: ReaderChoice.Kind?
    @Option(help: ArgumentHelp(
        "Read with the trained models in this folder instead of the bundled ones (line-detector.safetensors, line-recognizer.safetensors and optionally photo-orienter.safetensors, second-line-detector.safetensors, second-line-recognizer.safetensors and photo-line-detector.safetensors, as Training/export.py writes them); implies --reader model.",
        valueName: "dir"))
    var models: String?
    @Option(help: ArgumentHelp(
        "(developer) Read with the model's reading threshold set to this (0-1), to choose it on validation photos.",
        visibility: .hidden))
    var minConfidence: Double?
    @Flag(help: ArgumentHelp(
        "(developer) Read with the model but without its orienter: every photo as it is, to measure what the orienter changes.",
        visibility: .hidden))
    var noOrienter = false
    @Flag(help: ArgumentHelp(
        "(developer) Read with the model alone: no second recognizer, no second detector and no second opinion from the rules on the photos it refuses.",
        visibility: .hidden))
    var noSecondOpinion = false

    func validate() throws {
        if models != nil && reader == .rules {
            throw ValidationError("--models is for the trained reader: leave out --reader rules")
        }
        if let minConfidence, !(0...1).contains(minConfidence) {
            throw ValidationError("--min-confidence must be between 0 and 1")
        }
    }

    func choice() throws -> ReaderChoice {
        var choice: ReaderChoice
        if let models {
            do {
                choice = .model(try ReaderModels(directory: URL(fileURLWithPath: models, isDirectory: true)))
            } catch {
                throw CommandFailure(error.description)
            }
        } else {
            // The default is the trained reader; where its models cannot be loaded, that is an error to see, not
            // a quiet fall back to the rules.
            do {
                choice = try ReaderChoice.make(reader ?? ReaderChoice.preferredKind)
            } catch {
                throw CommandFailure(error.description)
            }
        }
        if case .model(var models) = choice {
            if let minConfidence { models.recognizerInfo.minimumConfidence = minConfidence }
            if noOrienter { models.orienter = nil }
            if noSecondOpinion {
                models.secondRecognizer = nil
                models.secondDetector = nil
                models.secondOpinion = .none
            }
            choice = .model(models)
        }
        return choice
    }
}
