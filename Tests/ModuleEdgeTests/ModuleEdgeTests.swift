import Foundation
import XCTest

/// The module graph's promise, read from the manifest as SwiftPM evaluates it (`swift package dump-package`, run as
/// a subprocess, about a second): a program that uses the camera reader (the VitalSnapOCR product) or the record
/// types (VitalSnapRecords) gets neither the upload queue (VitalSnapCore) nor SQLite (CSQLite). A target that
/// reached either would make every reader-only program link libsqlite3 and the uploader again.
///
/// Scripts/check-module-edges.sh checks the same on a linked program: a throwaway package that depends on this one
/// by path and reads a photo with VitalSnapOCR, whose executable must not need libsqlite3.
final class ModuleEdgeTests: XCTestCase {
    /// Targets a reader-only program must not depend on, directly or through another target.
    private static let forbidden: Set<String> = ["VitalSnapCore", "CSQLite"]

    func testTheReaderProductReachesTheRecordsButNotTheQueueNorSQLite() throws {
        let manifest = try Manifest.dumped()
        let closure = try manifest.closure(ofProduct: "VitalSnapOCR")
        // The walk itself works: the reader's records are reached.
        XCTAssertTrue(closure.targets.contains("VitalSnapRecords"), "VitalSnapOCR's closure: \(closure.targets.sorted())")
        XCTAssertTrue(
            closure.targets.isDisjoint(with: Self.forbidden),
            "VitalSnapOCR reaches \(closure.targets.intersection(Self.forbidden).sorted()): \(closure.path(to: Self.forbidden))")
        XCTAssertEqual(closure.linkingSQLite, [], "targets in VitalSnapOCR's closure that link SQLite themselves")
    }

    /// `vitalsnap-scenes` is carried, with every library it loads, to a training machine without Swift
    /// (Training/gpu/pack.sh, 64 MiB with the working tree): it renders scenes and needs none of the queue, the
    /// Bluetooth, Health, HTTP or camera modules, nor the libraries behind them.
    func testTheSceneRendererReachesOnlyTheGenerator() throws {
        let manifest = try Manifest.dumped()
        let closure = try manifest.closure(ofProduct: "vitalsnap-scenes")
        XCTAssertTrue(closure.targets.contains("VitalSnapSamples"), "vitalsnap-scenes' closure: \(closure.targets.sorted())")
        let heavy: Set<String> = Self.forbidden.union([
            "VitalSnapBluetooth", "VitalSnapHealth", "VitalSnapView", "VitalSnapIngestStub", "VitalSnapCapture",
            "CDBus", "CLibXML2", "CIsal", "CV4L2",
        ])
        XCTAssertTrue(
            closure.targets.isDisjoint(with: heavy),
            "vitalsnap-scenes reaches \(closure.targets.intersection(heavy).sorted()): \(closure.path(to: heavy))")
    }

    func testTheRecordsProductReachesNeitherTheQueueNorSQLite() throws {
        let manifest = try Manifest.dumped()
        let closure = try manifest.closure(ofProduct: "VitalSnapRecords")
        XCTAssertTrue(
            closure.targets.isDisjoint(with: Self.forbidden),
            "VitalSnapRecords reaches \(closure.targets.intersection(Self.forbidden).sorted()): \(closure.path(to: Self.forbidden))")
        XCTAssertEqual(closure.linkingSQLite, [], "targets in VitalSnapRecords' closure that link SQLite themselves")
    }
}

/// The parts of `swift package dump-package`'s JSON these tests read.
private struct Manifest {
    struct Target {
        var name: String
        /// Targets and products it depends on, by name, in the manifest's order.
        var dependencies: [String]
        /// Its `pkgConfig` name (system library targets) and its build settings, as JSON text: where a target
        /// could link a library without depending on CSQLite.
        var linkageText: String
    }

    var targets: [String: Target]
    var products: [String: [String]]

    /// The targets a product's targets reach, this package's only (another package's products end the walk).
    struct Closure {
        var targets: Set<String> = []
        /// How each target was first reached: the target that depends on it.
        var reachedFrom: [String: String] = [:]
        /// Targets in the closure whose own settings or pkg-config name mention SQLite.
        var linkingSQLite: [String] = []

        /// `A -> B -> C`, from the product's target to the first of `names` reached; empty when none is.
        func path(to names: Set<String>) -> String {
            guard var name = names.sorted().first(where: targets.contains) else { return "" }
            var steps = [name]
            while let parent = reachedFrom[name] {
                steps.append(parent)
                name = parent
            }
            return steps.reversed().joined(separator: " -> ")
        }
    }

    func closure(ofProduct product: String) throws -> Closure {
        let roots = try XCTUnwrap(products[product], "no product \(product) in \(products.keys.sorted())")
        var closure = Closure()
        var pending = roots
        closure.targets.formUnion(roots)
        while let name = pending.popLast() {
            guard let target = targets[name] else { continue }
            if target.linkageText.lowercased().contains("sqlite") { closure.linkingSQLite.append(name) }
            for dependency in target.dependencies where targets[dependency] != nil && !closure.targets.contains(dependency) {
                closure.targets.insert(dependency)
                closure.reachedFrom[dependency] = name
                pending.append(dependency)
            }
        }
        closure.linkingSQLite.sort()
        return closure
    }

    /// The package root, found from this file's place in it (Tests/ModuleEdgeTests/).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The manifest of the package these tests were built from; skips when no `swift` is found (on PATH or in
    /// /opt/swift/usr/bin) or the sources are not where they were built.
    static func dumped() throws -> Manifest {
        guard FileManager.default.fileExists(atPath: packageRoot.appendingPathComponent("Package.swift").path) else {
            throw XCTSkip("no Package.swift at \(packageRoot.path): the tests run away from their sources")
        }
        guard let swift = findSwift() else {
            throw XCTSkip("no swift on PATH nor at /opt/swift/usr/bin/swift: cannot run `swift package dump-package`")
        }
        // A build folder of its own (nothing is built in it), so that the `swift test` running this does not hold
        // the one it needs; always the same one, as SwiftPM leaves a lock file in the temporary folder for each.
        let scratch = packageRoot.appendingPathComponent(".build/module-edges")
        let outputFolder = FileManager.default.temporaryDirectory.appendingPathComponent("vitalsnap-edges-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outputFolder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: outputFolder) }
        let output = try run(
            swift, ["package", "--package-path", packageRoot.path, "--scratch-path", scratch.path, "dump-package"],
            outputIn: outputFolder)
        return try parse(output)
    }

    static func parse(_ data: Data) throws -> Manifest {
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any], "dump-package's output is not an object")
        let targetObjects = try XCTUnwrap(object["targets"] as? [[String: Any]], "dump-package's output has no targets")
        var targets: [String: Target] = [:]
        for entry in targetObjects {
            let name = try XCTUnwrap(entry["name"] as? String, "a target without a name")
            let dependencies = try (entry["dependencies"] as? [[String: Any]] ?? []).map { dependency in
                // {"byName": [name, condition]}, {"target": [name, condition]}, {"product": [name, package, ...]}
                let (kind, value) = try XCTUnwrap(dependency.first, "an empty dependency of \(name)")
                let fields = try XCTUnwrap(value as? [Any], "dependency \(kind) of \(name) is not a list")
                let dependencyName = try XCTUnwrap(fields.first as? String, "dependency \(kind) of \(name) has no name")
                // Another package's product has the same name as no target here, unless it is this package's.
                return kind == "product" ? "product \(dependencyName)" : dependencyName
            }
            var linkage: [String: Any] = [:]
            linkage["pkgConfig"] = entry["pkgConfig"]
            linkage["settings"] = entry["settings"]
            let linkageText = String(decoding: try JSONSerialization.data(withJSONObject: linkage, options: [.sortedKeys]), as: UTF8.self)
            targets[name] = Target(name: name, dependencies: dependencies, linkageText: linkageText)
        }
        var products: [String: [String]] = [:]
        for entry in object["products"] as? [[String: Any]] ?? [] {
            guard let name = entry["name"] as? String else { continue }
            products[name] = entry["targets"] as? [String] ?? []
        }
        return Manifest(targets: targets, products: products)
    }

    private static func findSwift() -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = path.split(separator: ":").map { "\($0)/swift" } + ["/opt/swift/usr/bin/swift"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// `executable arguments`, its output collected in files under `folder` (a pipe left unread could fill and
    /// stall it); fails after a minute rather than hanging the suite.
    private static func run(_ executable: String, _ arguments: [String], outputIn folder: URL) throws -> Data {
        let stdoutURL = folder.appendingPathComponent("stdout"), stderrURL = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        let stdout = try FileHandle(forWritingTo: stdoutURL), stderr = try FileHandle(forWritingTo: stderrURL)
        defer {
            try? stdout.close()
            try? stderr.close()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw Failure("`\(executable) \(arguments.joined(separator: " "))` ran for over a minute")
        }
        let output = try Data(contentsOf: stdoutURL)
        guard process.terminationStatus == 0 else {
            let message = (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
            throw Failure("`\(executable) \(arguments.joined(separator: " "))` exited with \(process.terminationStatus): \(message)")
        }
        return output
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
