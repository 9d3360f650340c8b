import Foundation

/// A one-line progress bar on stderr, drawn only when stderr is a terminal (never into logs or pipes): the
/// count, the rate and, when the total is known, a bar and the time left.
struct ProgressBar {
    /// nil when the inputs are streamed and their number is not known in advance.
    let total: Int?
    let label: String
    let enabled: Bool
    private var lastDrawn = Date.distantPast
    private var drawn = false
    private let start = Date()

    init(total: Int?, label: String) {
        self.total = total
        self.label = label
        enabled = Self.stderrIsTerminal && (total ?? 2) > 1
    }

    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }

    /// Redraws the bar (at most ten times a second, and at the end).
    mutating func update(_ done: Int) {
        guard enabled else { return }
        let now = Date()
        guard done == total || now.timeIntervalSince(lastDrawn) > 0.1 else { return }
        lastDrawn = now
        let elapsed = now.timeIntervalSince(start)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let text: String
        if let total {
            let width = 30
            let filled = total > 0 ? min(width, width * done / total) : width
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            let left = rate > 0 && done < total ? "  " + Self.duration(Double(total - done) / rate) + " left" : ""
            text = String(format: "\r\u{1B}[K%@ [%@] %d/%d  %.1f/s%@", label, bar, done, total, rate, left)
        } else {
            text = String(format: "\r\u{1B}[K%@ %d  %.1f/s", label, done, rate)
        }
        FileHandle.standardError.write(Data(text.utf8))
        drawn = true
    }

    /// `1:05:09`, `5:09`.
    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.up))
        return s >= 3600
            ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
            : String(format: "%d:%02d", s / 60, s % 60)
    }

    /// Erases the bar so a line can be printed; the next `update` draws it again.
    mutating func clear() {
        guard enabled, drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        drawn = false
        lastDrawn = .distantPast
    }
}
