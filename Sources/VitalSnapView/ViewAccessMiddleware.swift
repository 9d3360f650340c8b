import Hummingbird

/// Refuses, with 403, every request the view's access policy does not allow (a wrong or missing token, a
/// foreign `Host`), before any route sees it. The policy exists once the server listens and its port is known
/// (no request can arrive before).
struct ViewAccessMiddleware<Context: RequestContext>: RouterMiddleware {
    let policy: @Sendable () -> ViewAccessPolicy?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let policy = policy() else { return Response(status: .serviceUnavailable) }
        guard policy.allows(host: request.head.authority), policy.allows(path: request.uri.path) else {
            return Response(status: .forbidden, body: .init(byteBuffer: ByteBuffer(string: "forbidden\n")))
        }
        return try await next(request, context)
    }
}
