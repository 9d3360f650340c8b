import ArgumentParser
import Foundation
import VitalSnapOCR

struct PeripheralsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peripherals",
        abstract: "List the OCR peripherals (devices whose displays can be read).",
        discussion: """
            Ids 1, 2, 5, 6, 9 and 100 read any device of their type, wherever the display sits in the photo; \
            the others are particular meter designs with a fixed layout.

            Examples:
              vitalsnap peripherals
              vitalsnap peripherals --json
            """
    )

    @Flag(help: "Print the definitions as JSON.") var json = false
    @Option(help: ArgumentHelp("Folder of peripheral definitions to use instead of the built-in ones.", valueName: "dir"))
    var overlays: String?

    func run() throws {
        let catalog = try overlays.map { try PeripheralCatalog.load(from: URL(fileURLWithPath: $0)) } ?? PeripheralCatalog.builtIn()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(catalog.peripherals), as: UTF8.self))
            return
        }
        var rows = [["ID", "TYPE", "MANUFACTURER", "MODEL", "READS"]]
        for p in catalog.peripherals {
            let reads = p.measurementFields.map { f in
                let units = f.units.map(\.unit).filter { !$0.isEmpty }
                return units.isEmpty ? f.name.rawValue : "\(f.name.rawValue) (\(units.joined(separator: ", ")))"
            }.joined(separator: ", ")
            rows.append([String(p.id), p.type.displayName, p.manufacturer, p.model, reads])
        }
        print(TextTable.render(rows))
    }
}
