import ArgumentParser
import VitalSnapView

/// `--view`: the capture view, a local web page showing the camera, the overlay and the reading.
struct ViewOptions: ParsableArguments {
    @Flag(help: ArgumentHelp(
        "Show the camera, the peripheral's overlay and the reading in a local web page, and accept, edit, retake or cancel there; prints `view: URL` on stderr."))
    var view = false
    @Option(help: ArgumentHelp("Port of the view (default: a free one).", valueName: "port"))
    var viewPort: Int?
    @Option(help: ArgumentHelp(
        "Address the view listens on (default 127.0.0.1). Another address lets other machines see the camera: anyone who has the URL.",
        valueName: "address"))
    var viewListen: String?

    func validate() throws {
        if !view && (viewPort != nil || viewListen != nil) { throw ValidationError("--view-port and --view-listen need --view") }
        if let viewPort, !(0...65535).contains(viewPort) { throw ValidationError("--view-port must be 0 to 65535") }
        if let viewListen, viewListen.isEmpty { throw ValidationError("--view-listen needs an address, such as 127.0.0.1") }
    }

    /// The server's configuration these options ask for.
    var configuration: CaptureViewServer.Configuration {
        var configuration = CaptureViewServer.Configuration()
        if let viewPort { configuration.port = viewPort }
        if let viewListen { configuration.listenAddress = viewListen }
        return configuration
    }

    /// Whether the view is reachable from other machines.
    var listensBeyondLoopback: Bool {
        !ViewAccessPolicy.loopbackAddresses.contains(configuration.listenAddress)
    }
}
