import Foundation

/// The view's page (HTML, CSS and an ES module, no build step), bundled with the package and read once.
struct PageFiles: Sendable {
    struct File: Sendable {
        var bytes: [UInt8]
        var contentType: String
    }

    let files: [String: File]

    /// The files of the bundled `Page` folder, by name.
    init() throws {
        guard let folder = Bundle.module.url(forResource: "Page", withExtension: nil) else {
            throw CaptureViewError.pageMissing
        }
        var files: [String: File] = [:]
        for (name, type) in Self.served {
            let url = folder.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: url.path) else { throw CaptureViewError.pageMissing }
            files[name] = File(bytes: [UInt8](data), contentType: type)
        }
        self.files = files
    }

    /// The files served, with their content types.
    static let served: [String: String] = [
        "index.html": "text/html; charset=utf-8",
        "view.css": "text/css; charset=utf-8",
        "view.js": "text/javascript; charset=utf-8",
    ]
}
