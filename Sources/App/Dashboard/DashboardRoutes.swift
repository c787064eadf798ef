import Foundation
import Hummingbird
import RemotionHostLogic
import RemotionSystem

/// The dashboard's HTTP routes: the page and its files, the snapshot, the settings and
/// gyro calibration requests. Like the settings, a calibration request is a small JSON
/// POST to a server that listens on loopback only; it starts a collection on the host's
/// loop through `SettingsControl` and never waits for it to finish.
struct DashboardRoutes: Sendable {
    let assets: StaticAssets
    let publisher: SnapshotPublisher
    let settings: any SettingsControl
    let refusals: DashboardRefusals

    /// The most a settings request body may hold.
    static let maxBody = 16 * 1024

    func add(to router: Router<BasicRequestContext>) {
        router.get("/") { _, _ in self.asset("index.html") }
        router.get("/assets/:name") { _, context in
            self.asset(context.parameters.get("name") ?? "")
        }
        router.get("/api/snapshot") { _, _ in
            // Built for this request (the host builds none while nobody reads).
            Self.json(.ok, DashboardJSON.encode(self.snapshot(await self.publisher.fresh())))
        }
        router.get("/ws") { _, _ in
            // Only reached when the request was not a WebSocket upgrade.
            Self.json(.upgradeRequired, DashboardJSON.encode(["error": "connect with a WebSocket"]))
        }
        router.get("/api/settings") { _, _ in
            Self.json(.ok, DashboardJSON.encode(SettingsView(await self.settings.current())))
        }
        router.post("/api/settings") { request, _ in
            var request = request
            let body: ByteBuffer
            do {
                body = try await request.collectBody(upTo: Self.maxBody)
            } catch {
                return Self.json(.contentTooLarge, DashboardJSON.encode(["error": "the request body is over \(Self.maxBody) bytes"]))
            }
            let result = await self.change(Data(body.readableBytesView))
            switch result {
            case .success(let s): return Self.json(.ok, DashboardJSON.encode(SettingsView(s)))
            case .failure(let e): return Self.json(e.status, DashboardJSON.encode(["error": e.message]))
            }
        }
        router.post("/api/web-pairing") { _, _ in
            // Loopback only, Origin and Host checked, JSON only (DashboardGuardMiddleware).
            guard let url = await self.settings.openPhonePairing() else {
                return Self.json(.notFound, DashboardJSON.encode(["error": "this host serves no web controller (--no-web)"]))
            }
            let png = (try? QRCode(text: url).png(scale: 6, quietZone: 4)) ?? []
            return Self.json(.ok, DashboardJSON.encode(["url": url, "qr": "data:image/png;base64," + Data(png).base64EncodedString()]))
        }
        router.post("/api/calibrate") { request, _ in
            var request = request
            guard let body = try? await request.collectBody(upTo: Self.maxBody) else {
                return Self.json(.contentTooLarge, DashboardJSON.encode(["error": "the request body is over \(Self.maxBody) bytes"]))
            }
            return await self.calibrate(Data(body.readableBytesView))
        }
        router.post("/api/pad") { request, _ in
            var request = request
            guard let body = try? await request.collectBody(upTo: Self.maxBody) else {
                return Self.json(.contentTooLarge, DashboardJSON.encode(["error": "the request body is over \(Self.maxBody) bytes"]))
            }
            return await self.pad(Data(body.readableBytesView))
        }
    }

    /// POST /api/pad {"session": "0000abcd", "on": true}: 200 {"session", "pad": true|false},
    /// 404 for no such controller or a host without pads (`--gamepad`), 400 for bad JSON.
    func pad(_ data: Data) async -> Response {
        guard let request = try? JSONDecoder().decode(PadRequest.self, from: data) else {
            return Self.json(.badRequest, DashboardJSON.encode(["error": "expected a JSON object {\"session\": \"...\", \"on\": true}"]))
        }
        let has: Bool?
        do { has = try await settings.setPad(session: request.session, on: request.on) } catch {
            return Self.json(.internalServerError, DashboardJSON.encode(["error": "could not change the pad: \(error)"]))
        }
        guard let has else {
            return Self.json(.notFound, DashboardJSON.encode(
                ["error": "no controller with session \"\(request.session)\", or this host makes no pads (start it with --gamepad dualsense)"]))
        }
        return Self.json(.ok, DashboardJSON.encode(PadAnswer(session: request.session, pad: has)))
    }

    /// POST /api/calibrate {"session": "0000abcd"}: 200 {"session", "result": "started"},
    /// 404 for no such controller, 409 while `calibration.mode = off`, 400 for bad JSON.
    func calibrate(_ data: Data) async -> Response {
        guard let request = try? JSONDecoder().decode(CalibrationRequest.self, from: data) else {
            return Self.json(.badRequest, DashboardJSON.encode(["error": "expected a JSON object {\"session\": \"...\"}"]))
        }
        let result: CalibrationStart
        do { result = try await settings.calibrate(session: request.session) } catch {
            return Self.json(.internalServerError, DashboardJSON.encode(["error": "could not calibrate: \(error)"]))
        }
        switch result {
        case .started:
            return Self.json(.ok, DashboardJSON.encode(["session": request.session, "result": result.rawValue]))
        case .off:
            return Self.json(.conflict, DashboardJSON.encode(["error": "gyro calibration is off (calibration.mode = off)"]))
        case .noController:
            return Self.json(.notFound, DashboardJSON.encode(["error": "no controller with session \"\(request.session)\""]))
        }
    }

    /// The host's snapshot (the newest published) with the dashboard's own numbers.
    func snapshot(_ published: HostSnapshot? = nil) -> HostSnapshot {
        var s = published ?? publisher.current()
        s.dashboardRefusals = refusals.current
        return s
    }

    /// Why a settings change failed, with the HTTP status to answer.
    struct ChangeFailure: Error {
        var status: HTTPResponse.Status
        var message: String
    }

    /// Decodes and applies one change (shared by POST /api/settings and the WebSocket).
    func change(_ data: Data) async -> Result<MappingSettings, ChangeFailure> {
        let change: SettingsChange
        do { change = try DashboardJSON.decodeChange(data) } catch {
            return .failure(ChangeFailure(status: .badRequest, message: error.message))
        }
        do {
            return .success(try await settings.apply(key: change.key, value: change.value))
        } catch let error as MappingSettingError {
            return .failure(ChangeFailure(status: .badRequest, message: error.message))
        } catch {
            return .failure(ChangeFailure(status: .internalServerError, message: "could not apply \(change.key): \(error)"))
        }
    }

    private func asset(_ name: String) -> Response {
        guard let file = assets.files[name] else {
            return Response(status: .notFound, body: .init(byteBuffer: ByteBuffer(string: "not found\n")))
        }
        var headers = HTTPFields()
        headers[.contentType] = file.contentType
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: file.body)))
    }

    static func json(_ status: HTTPResponse.Status, _ data: Data) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        headers[.cacheControl] = "no-store"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
