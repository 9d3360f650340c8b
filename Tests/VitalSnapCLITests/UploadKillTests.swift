import Foundation
import VitalSnapCore
import VitalSnapIngestStub
import VitalSnapRecords
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// `vitalsnap queue upload` killed with SIGKILL at random moments, again and again, then allowed to finish: the
/// server must end up with every record exactly once, in order, and every image, and the queue empty.
final class UploadKillTests: XCTestCase {
    func testKilledUploadsLoseAndDuplicateNothing() throws {
        guard let executable = CLI.executable else { throw XCTSkip("the vitalsnap executable was not found next to the tests") }
        let token = "kill-test-token"
        let server = IngestionStubServer(expectedToken: token)
        try server.start()
        defer { server.stop() }
        // A little latency per request, so that kills land between sending and recording the answer.
        var seed: UInt64 = 0x5EED
        server.setFaultPlan { request in .delay(Double(request.index % 5) * 0.006) }

        let folder = try makeTemporaryFolder()
        let directory = DataDirectory(path: folder.appendingPathComponent("data").path)
        let session = UserSession(userID: "u1", organizationID: "org1", accessToken: token, endpoint: server.baseURL)
        try SessionStore(directory: directory).save(session)
        let queue = try UploadQueue(directory: directory)
        var submitted: [String] = []
        var images: [String: Data] = [:]
        for i in 0..<200 {
            let header = RecordHeader(timestamp: Date(timeIntervalSince1970: 1_760_000_000 + Double(i) * 60), utcOffset: UTCOffset(seconds: 3600)!)
            let record = Record.diabetes(try DiabetesRecord(header: header, bloodGlucose: Double(70 + i), unit: .mgPerDL))
            let image = i % 6 == 0 ? Data([0xFF, 0xD8] + (0..<3000).map { UInt8(($0 &* (i + 3)) & 0xFF) }) : nil
            try queue.submit(record, image: image, owner: session.ownerKey)
            submitted.append(record.activityID)
            if let image { images[record.activityID] = image }
        }

        func launch() throws -> Process {
            let process = Process()
            process.executableURL = executable
            process.arguments = ["queue", "upload", "--data-dir", directory.path, "--attempts", "3", "--timeout", "5"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }

        var kills = 0, killsWhileSending = 0, launches = 0
        while kills < 25 {
            let before = server.requests
            let process = try launch()
            launches += 1
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            usleep(useconds_t(30_000 + Int(seed >> 33) % 170_000))  // 30-200 ms
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                kills += 1
            }
            process.waitUntilExit()
            if server.requests > before && process.terminationReason == .uncaughtSignal { killsWhileSending += 1 }
            if try queue.count() == 0 { break }
        }
        // Then one run left alone finishes the job.
        let last = try launch()
        last.waitUntilExit()
        XCTAssertEqual(last.terminationStatus, 0)

        let stored = server.storedRecords
        XCTAssertGreaterThanOrEqual(kills, 20, "the queue emptied before 20 kills: slow the server down")
        XCTAssertEqual(stored.count, submitted.count, "records stored")
        XCTAssertEqual(Set(stored.map(\.activityID)).count, stored.count, "no record stored twice")
        XCTAssertEqual(stored.map(\.activityID), submitted, "first deliveries in queue order")
        let serverIDs = Dictionary(uniqueKeysWithValues: stored.map { ($0.activityID, $0.serverID) })
        for (activityID, image) in images {
            XCTAssertEqual(server.storedMedia[serverIDs[activityID]!], image, "image of \(activityID)")
        }
        XCTAssertEqual(server.storedMedia.count, images.count)
        XCTAssertEqual(try queue.count(), 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.imagesFolder), [])
        // The figures for the record (stdout of `swift test`).
        print("kill test: \(launches + 1) runs, \(kills) SIGKILLs (\(killsWhileSending) after requests had reached the server), "
            + "\(submitted.count) records and \(images.count) images sent; server stored \(stored.count) records and "
            + "\(server.storedMedia.count) images; \(server.duplicateDeliveries) repeated record deliveries and "
            + "\(server.duplicateMediaDeliveries) repeated image deliveries deduplicated; \(server.requests) requests")
    }
}
