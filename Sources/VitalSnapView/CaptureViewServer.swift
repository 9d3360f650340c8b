import Foundation
import HTTPTypes
import Hummingbird
import ServiceLifecycle
import HummingbirdWebSocket
import Logging
import VitalSnapImaging
import VitalSnapOCR

/// The capture view: a local web page that shows what the camera sees, the peripheral's overlay where the
/// display should be held, every frame's partial reading and glare, and the steady reading to accept, edit,
/// retake or cancel. The mobile SDK's ready-made `VLDOCRViewController`, for a Linux desk or kiosk.
///
/// Served by Hummingbird on loopback: the page and its files over HTTP, the frames (JPEG, one at a time: the next
/// only once the page has drawn the last) and the reading (JSON) over a WebSocket, which also carries the
/// page's decisions back. `ViewAccessPolicy` says who may drive it.
public final class CaptureViewServer: Sendable {
    public struct Configuration: Sendable {
        /// The address to listen on: loopback unless the user asks otherwise.
        public var listenAddress = "127.0.0.1"
        /// 0: a free port.
        public var port = 0
        /// JPEG quality of the frames sent to the page (1...100): enough to see the display, small enough to
        /// send 1280x720 frames many times a second.
        public var frameQuality = 80
        /// Frames sent to a page per second at most: a webcam's rate. A reader faster than that (a replay read
        /// unpaced) gets no faster preview, and the encoding and drawing leave it the cores.
        public var maximumFramesPerSecond = 30.0
        /// A page message longer than this (bytes) closes its connection: by default the longest command.
        public var maximumMessageSize = ViewCommand.maximumLength
        /// A layout is given for previews of at most this many pixels a side.
        public var maximumPreviewSide = 20_000
        /// `stop` waits this long for the server's graceful shutdown (its connections answered and closed), then
        /// cancels it: a browser may hold a connection open.
        public var shutdownGrace: Duration = .seconds(5)
        public init() {}
    }

    public let configuration: Configuration
    public let hub: ViewHub
    public let token: ViewToken
    private let peripheral: PeripheralDefinition
    private let overlayPNG: [UInt8]?
    private let page: PageFiles
    private let logger: Logger
    private let running = RunningServer()

    /// - Parameter overlayPNG: the peripheral's overlay image (nil: the page shows the display window's outline).
    public init(
        peripheral: PeripheralDefinition, overlayPNG: [UInt8]?, hub: ViewHub, configuration: Configuration = .init(),
        logger: Logger = Logger(label: "vitalsnap.view")
    ) throws {
        self.peripheral = peripheral
        self.overlayPNG = overlayPNG
        self.hub = hub
        self.configuration = configuration
        self.token = ViewToken()
        self.page = try PageFiles()
        self.logger = logger
    }

    /// Starts listening; returns the page's URL (which holds the token) once the server is up.
    public func start() async throws -> URL {
        let (portStream, portContinuation) = AsyncStream<Int>.makeStream()
        let router = makeRouter(policy: { self.running.policy })
        let app = Application(
            router: router,
            server: .http1WebSocketUpgrade(webSocketRouter: router),
            configuration: .init(address: .hostname(configuration.listenAddress, port: configuration.port)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            },
            logger: logger)
        // Run in a service group, which `stop` shuts down gracefully: cancelling the server's task could leave a
        // connection accepted just before, never served, whose writer NIO traps on when it is freed unfinished
        // (swift-nio issue 3481).
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task {
            do {
                try await group.run()
            } catch {
                portContinuation.finish()
                throw error
            }
        }
        var iterator = portStream.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            let why = await (try? task.value).map { _ in "it stopped" } ?? "the address is in use or not this machine's"
            throw CaptureViewError.cannotListen(configuration.listenAddress, configuration.port, why)
        }
        running.set(task: task, group: group, policy: ViewAccessPolicy(token: token, listenAddress: configuration.listenAddress, port: port))
        let host = configuration.listenAddress.contains(":") ? "[\(configuration.listenAddress)]" : configuration.listenAddress
        return URL(string: "http://\(host):\(port)/\(token.value)/")!
    }

    /// Stops the server: open pages lose their connection.
    public func stop() async {
        guard let (task, group) = running.take() else { return }
        // The pages' connections are closed first, so that the server stops with none left to wait on.
        hub.endPages()
        try? await Task.sleep(for: .milliseconds(100))
        await group.triggerGracefulShutdown()
        let grace = configuration.shutdownGrace
        await withTaskGroup(of: Void.self) { waiting in
            waiting.addTask { _ = await task.result }
            waiting.addTask {
                try? await Task.sleep(for: grace)
                task.cancel()
            }
            await waiting.next()
            waiting.cancelAll()
        }
        _ = await task.result
    }

    // MARK: - Routes

    private func makeRouter(policy: @escaping @Sendable () -> ViewAccessPolicy?) -> Router<BasicWebSocketRequestContext> {
        let router = Router(context: BasicWebSocketRequestContext.self)
        router.middlewares.add(ViewAccessMiddleware(policy: policy))
        let prefix = token.value
        let page = self.page
        for name in ["", "index.html"] {
            router.get(RouterPath("\(prefix)/\(name)")) { _, _ in Self.file(page.files["index.html"]!) }
        }
        for name in ["view.css", "view.js"] {
            router.get(RouterPath("\(prefix)/\(name)")) { _, _ in Self.file(page.files[name]!) }
        }
        let overlay = overlayPNG
        router.get(RouterPath("\(prefix)/overlay.png")) { _, _ in
            guard let overlay else { return Response(status: .notFound) }
            return Self.bytes(overlay, type: "image/png")
        }
        let hub = self.hub
        router.get(RouterPath("\(prefix)/crop.png")) { _, _ in
            let crop = hub.cropPNG
            guard !crop.isEmpty else { return Response(status: .notFound) }
            return Self.bytes(crop, type: "image/png")
        }
        let peripheral = self.peripheral, maximumSide = configuration.maximumPreviewSide
        router.get(RouterPath("\(prefix)/layout")) { request, _ in
            // The SDK's configureForPreviewLayerSize: where the overlay and the display window lie on a
            // preview of this size.
            let query = request.uri.queryParameters
            guard let width = query["width"].flatMap({ Int($0) }), let height = query["height"].flatMap({ Int($0) }),
                  (1...maximumSide).contains(width), (1...maximumSide).contains(height)
            else { throw HTTPError(.badRequest, message: "width and height: whole pixels, 1 to \(maximumSide)") }
            let layout = OverlayLayout(previewWidth: width, previewHeight: height, peripheral: peripheral)
            return Self.json(PreviewLayout(layout))
        }
        let quality = configuration.frameQuality, messageSize = configuration.maximumMessageSize
        let frameInterval = Duration.seconds(1 / configuration.maximumFramesPerSecond)
        router.ws(RouterPath("\(prefix)/ws")) { request, _ in
            guard let policy = policy(), policy.allows(origin: request.headers[.origin]) else { throw HTTPError(.forbidden) }
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, _ in
            try await PageConnection(hub: hub, frameQuality: quality, frameInterval: frameInterval).run(inbound: inbound, outbound: outbound, maximumMessageSize: messageSize)
        }
        return router
    }

    private static func file(_ file: PageFiles.File) -> Response {
        var response = bytes(file.bytes, type: file.contentType)
        if file.contentType.hasPrefix("text/html") {
            // Nothing from elsewhere, no inline script, and the URL (with its token) never sent as a referrer.
            response.headers[.contentSecurityPolicy] =
                "default-src 'self'; img-src 'self' blob:; connect-src 'self'; style-src 'self'; script-src 'self'; frame-ancestors 'none'"
            response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        }
        return response
    }

    private static func bytes(_ bytes: [UInt8], type: String) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: type, .cacheControl: "no-store", .xContentTypeOptions: "nosniff"],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    private static func json<T: Encodable>(_ value: T) -> Response {
        bytes([UInt8]((try? JSONEncoder().encode(value)) ?? Data()), type: "application/json")
    }
}
