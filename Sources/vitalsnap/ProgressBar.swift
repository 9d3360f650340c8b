import Foundation

/// A one-line progress bar on stderr, drawn only when stderr is a terminal (never into logs or pipes).
struct ProgressBar {
    let total: Int
    let label: String
    let enabled: Bool
    private var lastDrawn = Date.distantPast
    private var drawn = false
    private let start = Date()

    init(total: Int, label: String) {
        self.total = total
        self.label = label
        enabled = isatty(STDERR_FILENO) != 0 && total > 1
    }

    /// Redraws the bar (at most ten times a second, and at the end).
    mutating func update(_ done: Int) {
        guard enabled else { return }
        let now = Date()
        guard done == total || now.timeIntervalSince(lastDrawn) > 0.1 else { return }
        lastDrawn = now
        let width = 30
        let filled = total > 0 ? min(width, width * done / total) : width
        let elapsed = now.timeIntervalSince(start)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let text = String(format: "\r\u{1B}[K%@ [%@] %d/%d  %.1f/s", label, bar, done, total, rate)
        FileHandle.standardError.write(Data(text.utf8))
        drawn = true
    }

    /// Erases the bar so a line can be printed; the next `update` draws it again.
    mutating func clear() {
        guard enabled, drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        drawn = false
        lastDrawn = .distantPast
    }
}
