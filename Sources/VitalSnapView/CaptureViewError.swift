/// Why a capture view could not start.
public enum CaptureViewError: Error, CustomStringConvertible, Equatable {
    case pageMissing
    case cannotListen(String, Int, String)

    public var description: String {
        switch self {
        case .pageMissing: "the capture view's page is missing from the tool's bundle"
        case .cannotListen(let address, let port, let why): "the capture view cannot listen on \(address):\(port): \(why)"
        }
    }
}
