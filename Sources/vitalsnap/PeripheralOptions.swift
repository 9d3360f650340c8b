import ArgumentParser
import Foundation
import VitalSnapOCR

/// The peripheral and unit options shared by the reading commands.
struct PeripheralOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: "OCR peripheral id (see `vitalsnap peripherals`).")
    var peripheral: Int

    @Option(help: ArgumentHelp(
        "Unit the display shows: mg/dL or mmol for glucose meters (default mg/dL); C or F for thermometers; kg or lb for scales.",
        valueName: "unit"))
    var unit: String?

    @Option(help: ArgumentHelp("Folder of peripheral definitions to use instead of the built-in ones.", valueName: "dir"))
    var overlays: String?

    func catalog() throws -> PeripheralCatalog {
        if let overlays { return try PeripheralCatalog.load(from: URL(fileURLWithPath: overlays)) }
        return try PeripheralCatalog.builtIn()
    }

    func resolve() throws -> (PeripheralDefinition, String?) {
        let catalog = try catalog()
        guard let definition = catalog[peripheral] else {
            throw ValidationError(CatalogError.unknownPeripheral(peripheral, known: catalog.peripherals.map(\.id)).description)
        }
        guard let unit else { return (definition, nil) }
        let canonical = UnitName.canonical(unit)
        let known = Set(definition.measurementFields.flatMap { $0.units.map(\.unit) })
        guard known.contains(canonical) else {
            let list = known.filter { !$0.isEmpty }.sorted().joined(separator: ", ")
            throw ValidationError(
                "peripheral \(peripheral) (\(definition.name)) does not show \(unit)" + (list.isEmpty ? "" : "; it shows \(list)"))
        }
        return (definition, canonical)
    }
}

/// Spellings people type for units, mapped to the names the definitions use.
enum UnitName {
    static func canonical(_ text: String) -> String {
        switch text.lowercased().replacingOccurrences(of: " ", with: "") {
        case "mg", "mg/dl", "mgdl", "mg-dl": "mg/dL"
        case "mmol", "mmol/l", "mmoll", "mmol-l": "mmol/L"
        case "c", "°c", "celsius", "degc": "°C"
        case "f", "°f", "fahrenheit", "degf": "°F"
        case "kg", "kilograms": "kg"
        case "lb", "lbs", "pounds": "lb"
        default: text
        }
    }
}
