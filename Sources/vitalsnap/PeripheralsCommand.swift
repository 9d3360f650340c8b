import ArgumentParser
import Foundation
import VitalSnapOCR

struct PeripheralsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peripherals",
        abstract: "List the OCR peripherals (devices whose displays can be read).",
        discussion: """
            Ids 1, 2, 5, 6, 9 and 100 read any device of their type, wherever the display sits in the photo; \
            the others are particular meter designs with a fixed layout. Give the id to `batch` and `eval` \
            with --peripheral. The definitions live in Overlays/peripherals (one JSON file each, beside its \
            overlay image); --json prints them in full.

            Examples:
              vitalsnap peripherals
              vitalsnap peripherals --json
              vitalsnap peripherals --json | jq '.[] | {id, type}'
            """
    )

    @Flag(help: "Print the definitions as JSON (an array, ordered by id).") var json = false
    @OptionGroup var catalogOption: CatalogOption

    func run() throws {
        let catalog = try catalogOption.catalog()
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
