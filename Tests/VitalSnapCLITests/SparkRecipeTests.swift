import Foundation
import XCTest

/// The Spark recipe (`Scripts/spark-batch.py`) on the project's own samples: every input once through
/// `RDD.pipe`, with the readings of a plain `batch` run. Spark is not a dependency: without pyspark and a Java
/// runtime the test is skipped with a message.
final class SparkRecipeTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..")
        .standardizedFileURL

    /// A Python that can import pyspark: the recipe's virtualenv (`.venv-spark`) if there is one, else python3.
    func python() throws -> String {
        let candidates = [Self.root.appendingPathComponent(".venv-spark/bin/python").path, "/usr/bin/python3", "/usr/local/bin/python3"]
        for python in candidates where FileManager.default.isExecutableFile(atPath: python) {
            let probe = Process()
            probe.executableURL = URL(fileURLWithPath: python)
            probe.arguments = ["-c", "import pyspark, shutil, sys; sys.exit(0 if shutil.which('java') else 1)"]
            probe.standardOutput = FileHandle.nullDevice
            probe.standardError = FileHandle.nullDevice
            try probe.run()
            probe.waitUntilExit()
            if probe.terminationStatus == 0 { return python }
        }
        throw XCTSkip(
            "pyspark and a Java runtime are needed for the Spark recipe: python3 -m venv .venv-spark && "
                + ".venv-spark/bin/pip install -r Scripts/spark-requirements.txt; apt-get install -y openjdk-17-jre-headless")
    }

    func testEveryInputOnceWithThePlainRunsReadings() throws {
        let python = try python()
        guard let executable = CLI.executable else { throw XCTSkip("the vitalsnap executable was not found") }
        let folder = try makeTemporaryFolder()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [
            Self.root.appendingPathComponent("Scripts/spark-batch.py").path, Self.root.appendingPathComponent("Samples/formats").path,
            "-p", "100", "--reader", "rules", "--vitalsnap", executable.path, "--partitions", "3",
            "--out", folder.appendingPathComponent("results.parquet").path,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, text)
        XCTAssertTrue(text.contains("check: every one of the 14 inputs has exactly one result"), text)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("results.parquet/_SUCCESS").path), text)
    }
}
