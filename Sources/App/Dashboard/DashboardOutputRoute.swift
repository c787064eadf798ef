import Foundation
import Hummingbird
import RemotionHostLogic

/// The dashboard's output picker (docs/DASHBOARD.md, "Output"): which output the absolute
/// pointer covers, for injectors that have outputs (the wlroots injector).
///
///     PUT /api/output  {"output": "HEADLESS-2"}  → 200 PointerOutputs (as the snapshot's `outputs`)
///
/// It passes the guard every write passes (Host, Origin, JSON and this start's token:
/// docs/SECURITY.md §5.3). The switch happens on the host's loop (`HostPipeline.chooseOutput`),
/// then `[inject] output` is written into the config file. 400: not JSON, a name the config
/// file would refuse, or an output the compositor does not have (one line listing them);
/// 404: the injector has no outputs; 409: `--output` was given, the command line decides;
/// 500: the injector failed, or the file could not be written (the pointer covers it anyway).
struct DashboardOutputRoute: Sendable {
    let settings: any SettingsControl

    func add(to router: Router<BasicRequestContext>) {
        router.put("/api/output") { request, _ in
            var request = request
            guard let body = try? await request.collectBody(upTo: DashboardRoutes.maxBody) else {
                return Self.error(.contentTooLarge, "the request body is over \(DashboardRoutes.maxBody) bytes")
            }
            return await self.choose(Data(body.readableBytesView))
        }
    }

    func choose(_ data: Data) async -> Response {
        guard let request = try? JSONDecoder().decode(OutputRequest.self, from: data) else {
            return Self.error(.badRequest, "expected a JSON object {\"output\": \"NAME\"}")
        }
        guard InjectConfig.isOutputName(request.output) else {
            return Self.error(.badRequest, "an output's name is 1 to 63 bytes without spaces or control characters "
                              + "(`remotion doctor` lists the outputs)")
        }
        let choice: OutputChoice
        do { choice = try await settings.chooseOutput(request.output) } catch let error as OutputNotSaved {
            return Self.error(.internalServerError, "the pointer covers \(request.output) now, but it was not saved: \(error)")
        } catch {
            return Self.error(.internalServerError, "could not choose the output: \(error)")
        }
        switch choice {
        case .chosen(let outputs): return DashboardRoutes.json(.ok, DashboardJSON.encode(outputs))
        case .unknown(let line): return Self.error(.badRequest, line)
        case .noOutputs(let injector):
            return Self.error(.notFound, "the \(injector) injector has no outputs to choose: absolute motion covers the whole screen")
        case .commandLine(let line): return Self.error(.conflict, line)
        case .failed(let line): return Self.error(.internalServerError, line)
        }
    }

    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        DashboardRoutes.json(status, DashboardJSON.encode(["error": message]))
    }
}

/// The output was chosen, but the config file could not be written (`description`: why, one line).
package struct OutputNotSaved: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

struct OutputRequest: Codable, Sendable {
    var output: String
}
