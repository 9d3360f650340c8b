import Hummingbird

/// Refuses, with 403, every request the view's access policy does not allow (a wrong or missing token, a
/// foreign `Host`), before any route sees it.
struct ViewAccessMiddleware<Context: RequestContext>: RouterMiddleware {
    let policy: ViewAccessPolicy

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard policy.allows(host: request.head.authority), policy.allows(path: request.uri.path) else {
            return Response(status: .forbidden, body: .init(byteBuffer: ByteBuffer(string: "forbidden\n")))
        }
        return try await next(request, context)
    }
}
