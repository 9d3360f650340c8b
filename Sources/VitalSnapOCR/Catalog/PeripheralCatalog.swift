import Foundation
import VitalSnapOverlays

/// The OCR peripherals the reader knows, loaded from the JSON definitions in `Overlays/peripherals`.
public struct PeripheralCatalog: Sendable {
    public let peripherals: [PeripheralDefinition]
    /// The folder the definitions came from; overlay images sit beside them.
    public let directory: URL?

    public init(peripherals: [PeripheralDefinition], directory: URL? = nil) throws(CatalogError) {
        var seen = Set<Int>()
        for p in peripherals {
            guard seen.insert(p.id).inserted else { throw .duplicateID(p.id) }
            guard !p.measurementFields.isEmpty else { throw .invalid(p.id, "it has no measurement field") }
            for field in p.fields where field.units.isEmpty {
                throw .invalid(p.id, "field \(field.name.rawValue) has no unit")
            }
        }
        self.peripherals = peripherals.sorted { $0.id < $1.id }
        self.directory = directory
    }

    /// The definitions shipped with the tool.
    public static func builtIn() throws(CatalogError) -> PeripheralCatalog {
        guard let dir = OverlayFiles.directory else { throw .missingDirectory("the tool's Overlays resources") }
        return try load(from: dir)
    }

    /// Loads every `*.json` in `directory`.
    public static func load(from directory: URL) throws(CatalogError) -> PeripheralCatalog {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw .missingDirectory(directory.path)
        }
        var list: [PeripheralDefinition] = []
        for name in names.sorted() where name.hasSuffix(".json") {
            let url = directory.appendingPathComponent(name)
            do {
                let data = try Data(contentsOf: url)
                list.append(try JSONDecoder().decode(PeripheralDefinition.self, from: data))
            } catch {
                throw .unreadable(name, String(describing: error))
            }
        }
        return try PeripheralCatalog(peripherals: list, directory: directory)
    }

    public subscript(id: Int) -> PeripheralDefinition? { peripherals.first { $0.id == id } }

    public func peripherals(ofType type: PeripheralType) -> [PeripheralDefinition] {
        peripherals.filter { $0.type == type }
    }

    /// The overlay image file of a peripheral (`NNN-name.png` beside its definition).
    public func overlayImageURL(for id: Int) -> URL? {
        guard let directory else { return nil }
        let prefix = String(format: "%03d-", id)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.first { $0.hasPrefix(prefix) && $0.hasSuffix(".png") }.map { directory.appendingPathComponent($0) }
    }
}

public enum CatalogError: Error, CustomStringConvertible, Equatable {
    case missingDirectory(String)
    case unreadable(String, String)
    case duplicateID(Int)
    case invalid(Int, String)
    case unknownPeripheral(Int, known: [Int])

    public var description: String {
        switch self {
        case .missingDirectory(let path): "peripheral definitions not found in \(path)"
        case .unreadable(let file, let why): "cannot read peripheral definition \(file): \(why)"
        case .duplicateID(let id): "two peripheral definitions share id \(id)"
        case .invalid(let id, let why): "peripheral \(id) is invalid: \(why)"
        case .unknownPeripheral(let id, let known):
            "no OCR peripheral with id \(id); known ids: \(known.map(String.init).joined(separator: ", ")) (see `vitalsnap peripherals`)"
        }
    }
}
