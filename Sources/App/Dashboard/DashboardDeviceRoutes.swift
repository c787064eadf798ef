import Foundation
import Hummingbird
import RemotionHostLogic
import RemotionNetwork

/// The dashboard's pairing card (docs/DASHBOARD.md): the phones waiting to pair, with Accept and
/// Deny, and the paired phones and controllers, with Revoke and the typing switch.
///
///     GET  /api/devices                → DevicesView
///     POST /api/web-pairing/answer     {"request": "4821-1a2b3c4d", "accept": true}
///     POST /api/devices/revoke         {"phone": "<id>"} or {"controller": "<fingerprint>"}
///     POST /api/devices/typing         {"phone": "<id>", "typing": false}
///
/// Every POST passes the same guard as the other writes (Host, Origin, JSON and this
/// start's token: docs/SECURITY.md §5.3) before it gets here. The answer goes to the same
/// request `remotion devices --accept` and the terminal view answer: the first wins. An
/// answer within `settle` of the phone's asking is refused (409): no card was shown that long.
package struct DashboardDeviceRoutes: Sendable {
    let devices: PairedDevices?

    package init(devices: PairedDevices?) { self.devices = devices }

    func add(to router: Router<BasicRequestContext>) {
        router.get("/api/devices") { _, _ in self.list() }
        router.post("/api/web-pairing/answer") { request, _ in
            await Self.body(request) { self.answer($0) }
        }
        router.post("/api/devices/revoke") { request, _ in
            await Self.body(request) { self.revoke($0) }
        }
        router.post("/api/devices/typing") { request, _ in
            await Self.body(request) { self.typing($0) }
        }
    }

    func list(now: Date = Date()) -> Response {
        guard let devices else { return Self.json(.ok, DevicesView(web: false)) }
        do {
            let phones = try devices.phones(), controllers = try devices.controllers()
            let waiting = devices.waiting(now: now).map { DevicesView.Waiting($0, now: now) }
            return Self.json(.ok, DevicesView(web: devices.registry != nil, waiting: waiting,
                                              phones: phones.map { DevicesView.Phone($0) },
                                              controllers: controllers.map { DevicesView.Controller($0) }))
        } catch {
            return Self.error(.internalServerError, "cannot read the paired devices: \(error)")
        }
    }

    /// An answer sooner than this after the phone asked cannot come from a person who saw
    /// its card for the terminal's settle time (`ConsentKeys.settle`): the card shows on the
    /// page's next poll and its buttons wait that long.
    static let settle = TimeInterval(ConsentKeys.settle.components.seconds)

    package func answer(_ data: Data, now: Date = Date()) -> Response {
        guard let r = try? JSONDecoder().decode(AnswerRequest.self, from: data) else {
            return Self.error(.badRequest, "expected a JSON object {\"request\": \"CODE-ID\", \"accept\": true}")
        }
        if let asked = devices?.waiting(now: now).first(where: { $0.reference == r.request })?.asked,
           now.timeIntervalSince(asked) < Self.settle {
            return Self.error(.conflict, "this phone asked a moment ago: check its name and code, then answer again")
        }
        switch devices?.answer(reference: r.request, accept: r.accept, now: now) ?? .noWeb {
        case .answered(let decision):
            let (request, accepted) = switch decision { case .accepted(let q): (q, true); case .denied(let q): (q, false) }
            return Self.json(.ok, AnswerReply(request: request.reference, name: request.name, address: request.address,
                                              accepted: accepted))
        case .malformed: return Self.error(.badRequest, "name the waiting phone as CODE-ID (e.g. 4821-1a2b3c4d)")
        case .notWaiting: return Self.error(.notFound, "no phone waits as \(r.request): it was answered, or its time ran out")
        case .noWeb: return Self.error(.notFound, "this host serves no web controller (--no-web)")
        }
    }

    func revoke(_ data: Data) -> Response {
        guard let r = try? JSONDecoder().decode(RevokeRequest.self, from: data), (r.phone == nil) != (r.controller == nil) else {
            return Self.error(.badRequest, "expected a JSON object {\"phone\": \"ID\"} or {\"controller\": \"FINGERPRINT\"}")
        }
        guard let devices else { return Self.error(.notFound, "this host keeps no paired devices here") }
        do {
            if let id = r.phone {
                guard let gone = try devices.revoke(phone: id) else { return Self.error(.notFound, "no paired phone \(id)") }
                return Self.json(.ok, RevokeReply(phone: gone.id, name: gone.name))
            }
            let fingerprint = r.controller ?? ""
            guard let gone = try devices.revoke(controller: fingerprint) else {
                return Self.error(.notFound, "no paired controller \(fingerprint)")
            }
            return Self.json(.ok, RevokeReply(controller: gone.fingerprint, name: gone.name))
        } catch {
            return Self.error(.internalServerError, "could not revoke: \(error)")
        }
    }

    func typing(_ data: Data) -> Response {
        guard let r = try? JSONDecoder().decode(TypingRequest.self, from: data) else {
            return Self.error(.badRequest, "expected a JSON object {\"phone\": \"ID\", \"typing\": true}")
        }
        guard let devices else { return Self.error(.notFound, "this host keeps no paired devices here") }
        do {
            guard let device = try devices.setTyping(phone: r.phone, allowed: r.typing) else {
                return Self.error(.notFound, "no paired phone \(r.phone)")
            }
            return Self.json(.ok, DevicesView.Phone(device))
        } catch {
            return Self.error(.internalServerError, "could not change typing: \(error)")
        }
    }

    /// The body (at most `DashboardRoutes.maxBody`) handed to `handle`; 413 beyond.
    static func body(_ request: Request, _ handle: (Data) -> Response) async -> Response {
        var request = request
        guard let body = try? await request.collectBody(upTo: DashboardRoutes.maxBody) else {
            return error(.contentTooLarge, "the request body is over \(DashboardRoutes.maxBody) bytes")
        }
        return handle(Data(body.readableBytesView))
    }

    static func json(_ status: HTTPResponse.Status, _ value: some Encodable) -> Response {
        DashboardRoutes.json(status, DashboardJSON.encode(value))
    }

    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        DashboardRoutes.json(status, DashboardJSON.encode(["error": message]))
    }
}

struct AnswerRequest: Codable, Sendable {
    var request: String
    var accept: Bool
}

struct AnswerReply: Codable, Sendable {
    var request: String
    var name: String
    var address: String
    var accepted: Bool
}

struct RevokeRequest: Codable, Sendable {
    var phone: String?
    var controller: String?
}

struct RevokeReply: Codable, Sendable {
    var phone: String?
    var controller: String?
    var name: String
}

struct TypingRequest: Codable, Sendable {
    var phone: String
    var typing: Bool
}
