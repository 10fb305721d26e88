import Hummingbird
import Logging

/// One line per request: method, path, status, body size and time taken.
struct AccessLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        guard logger.logLevel <= .info else { return try await next(request, context) }
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, status: response.status.code, size: response.headers[.contentLength] ?? "-", since: start)
            return response
        } catch let error as any HTTPResponseError {
            log(request, status: error.status.code, size: "-", since: start)
            throw error
        } catch {
            log(request, status: 500, size: "-", since: start)
            throw error
        }
    }

    private func log(_ request: Request, status: Int, size: String, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        let time = (milliseconds * 100).rounded() / 100
        logger.info("\(request.method) \(request.uri.path) \(status) \(size) \(time)ms")
    }
}
