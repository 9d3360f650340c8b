import ArgumentParser
import Foundation
import VitalSnapOCR
import VitalSnapSamples
import VitalSnapTrainingSetCommand

/// `vitalsnap samples generate`: rewrites the synthetic sample set.
struct SamplesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "samples",
        abstract: "Generate the synthetic sample set (Samples/) or a training set.",
        discussion: """
            For developers of VitalSnap: the photos in Samples/ are rendered by the VitalSnapSamples module, \
            deterministically, from the sample meter designs (peripherals 101-106).

            `training-set` writes synthetic scenes, annotations and line crops for training the reader's \
            models (see Training/README.md).

            Examples:
              vitalsnap samples generate --output Samples
              vitalsnap samples training-set --count 10000 --seed 1 /tmp/training
            """,
        subcommands: [Generate.self, TrainingSetCommand.self]
    )

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "generate",
            abstract: "(developer) Write the sample photos, their labels.tsv files and README.md.",
            discussion: """
                Writes stills/<design>/, stills/glare-over-digits/, stills/words/ and clips/<clip>/ under the \
                output folder, each with its labels.tsv, and README.md. Files of the same names are replaced \
                and stale images in those folders removed; nothing else is touched. The same seed gives the \
                same bytes. Progress goes to stderr.

                Examples:
                  vitalsnap samples generate
                  vitalsnap samples generate --output /tmp/samples --seed 7
                """
        )

        @Option(help: ArgumentHelp("Folder to write to (default: ./Samples when it exists).", valueName: "dir"))
        var output: String?
        @Option(help: ArgumentHelp("Master seed (the checked-in set uses the default).", valueName: "n"))
        var seed: UInt64 = SampleSetWriter.defaultSeed
        @OptionGroup var catalogOption: CatalogOption

        func outputFolder() throws -> String {
            if let output { return output }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: "Samples", isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("no ./Samples folder here: pass --output DIR (or run from the repository root)")
            }
            return "Samples"
        }

        func validate() throws { _ = try outputFolder() }

        /// What the README written with the set tells to run (from the repository root) to make it again.
        var regenerateCommand: String {
            "swift run -c release vitalsnap samples generate --output Samples"
                + (seed == SampleSetWriter.defaultSeed ? "" : " --seed \(seed)")
                + " && swift run -c release vitalsnap overlays render --output Overlays/peripherals"
        }

        func run() throws {
            let output = try outputFolder()
            let catalog = try catalogOption.catalog()
            let root = URL(fileURLWithPath: output)
            let start = Date()
            let summary: SampleSetWriter.Summary
            do {
                summary = try SampleSetWriter.writeAll(to: root, catalog: catalog, seed: seed) { line in
                    printError("samples: \(line)")
                }
            } catch {
                throw CommandFailure(String(describing: error))
            }
            // The README the writer produces names the command that made it: keep it on this one.
            let readme = root.appendingPathComponent("README.md")
            if let text = try? String(contentsOf: readme, encoding: .utf8) {
                let fixed = text.replacingOccurrences(
                    of: SampleSetWriter.regenerateCommand, with: regenerateCommand)
                if fixed != text { try? Data(fixed.utf8).write(to: readme) }
            }
            print(String(
                format: "wrote %d images in %d folders to %@ (seed %llu, %.1f s)", summary.fileCount, summary.order.count,
                output, seed, Date().timeIntervalSince(start)))
        }
    }
}

/// `vitalsnap overlays render`: redraws the overlay images from the peripheral definitions.
struct OverlaysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "overlays",
        abstract: "Render the peripherals' overlay images (Overlays/peripherals).",
        discussion: """
            For developers of VitalSnap: each peripheral's overlay image (NNN-name.png beside its JSON \
            definition in Overlays/peripherals) is drawn from the definition, so the two never disagree.

            Example:
              vitalsnap overlays render
            """,
        subcommands: [Render.self]
    )

    struct Render: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "render",
            abstract: "(developer) Write NNN-name.png for every peripheral definition.",
            discussion: """
                Reads the definitions from --overlays DIR, else from the output folder when it holds \
                definitions (*.json), else the built-in ones, and writes one PNG per peripheral into the \
                output folder. Prints the files written.

                Examples:
                  vitalsnap overlays render
                  vitalsnap overlays render --output /tmp/overlays
                """
        )

        static let defaultOutput = "Overlays/peripherals"

        @Option(help: ArgumentHelp("Folder to write to (default: ./\(Render.defaultOutput) when it exists).", valueName: "dir"))
        var output: String?
        @OptionGroup var catalogOption: CatalogOption

        func outputFolder() throws -> String {
            if let output { return output }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: Self.defaultOutput, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("no ./\(Self.defaultOutput) folder here: pass --output DIR (or run from the repository root)")
            }
            return Self.defaultOutput
        }

        func validate() throws { _ = try outputFolder() }

        func run() throws {
            let output = try outputFolder()
            let catalog: PeripheralCatalog
            let hasDefinitions = ((try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []).contains { $0.hasSuffix(".json") }
            if catalogOption.overlays == nil, hasDefinitions {
                do {
                    catalog = try PeripheralCatalog.load(from: URL(fileURLWithPath: output))
                } catch {
                    throw CommandFailure(String(describing: error))
                }
            } else {
                catalog = try catalogOption.catalog()
            }
            do {
                for url in try OverlayRenderer.writeAll(catalog: catalog, to: URL(fileURLWithPath: output)) {
                    print((output as NSString).appendingPathComponent(url.lastPathComponent))
                }
            } catch {
                throw CommandFailure(String(describing: error))
            }
        }
    }
}
