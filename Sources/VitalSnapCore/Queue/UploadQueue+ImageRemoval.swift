import Foundation

/// Removing the images of rows that leave the queue, so that a kill at any moment leaves no image behind.
///
/// A row and its image cannot leave together: the row goes in an SQLite transaction, the file by `unlink`. So the
/// transaction that deletes a row also writes its image's name to `unlinking`, and the name leaves that table only
/// once the file is gone. A process killed in between leaves the name, and the next one to open the queue
/// finishes the job.
extension UploadQueue {
    /// Creates the `unlinking` table where it is missing (a queue made before it existed gains it on open).
    func createUnlinkingTable() throws(SQLiteError) {
        try database.execute("CREATE TABLE IF NOT EXISTS unlinking (image_file TEXT PRIMARY KEY)")
    }

    /// Inside a transaction, before the rows matching `condition` (SQL over `pending`, its `?1` bound by `bind`)
    /// are deleted: notes their images' names in `unlinking` and returns them.
    func noteImagesToUnlink(where condition: String, bind: (SQLiteStatement) throws -> Void) throws -> [String] {
        let select = try database.prepare(
            "SELECT image_file FROM pending WHERE (\(condition)) AND image_file IS NOT NULL")
        try bind(select)
        let names = try imageNames(from: select)
        let note = try database.prepare("INSERT OR IGNORE INTO unlinking (image_file) VALUES (?)")
        for name in names {
            note.reset()
            try note.bind(1, name)
            try note.step()
        }
        return names
    }

    /// Unlinks the images named, then forgets their names. Called under no lock; takes it for the forgetting.
    func unlinkNotedImages(_ names: [String]) {
        guard !names.isEmpty else { return }
        for name in names { unlink(directory.imagesFolder + "/" + name) }
        do {
            try locked {
                let forget = try database.prepare("DELETE FROM unlinking WHERE image_file = ?")
                for name in names {
                    forget.reset()
                    try forget.bind(1, name)
                    try forget.step()
                }
            }
        } catch {
            // The names stay noted; the next open unlinks them again, which finds nothing and forgets them.
        }
    }

    /// On open: unlinks the images a killed process noted and did not get to.
    func finishNotedUnlinks() throws {
        unlinkNotedImages(try imageNames(from: database.prepare("SELECT image_file FROM unlinking")))
    }

    /// The first column of every row `statement` gives: image file names.
    private func imageNames(from statement: SQLiteStatement) throws -> [String] {
        var names: [String] = []
        while try statement.step() { if let name = statement.text(0) { names.append(name) } }
        return names
    }
}
