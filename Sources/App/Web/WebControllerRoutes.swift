import Foundation
import HTTPTypes
import Hummingbird
import RemotionHostLogic

/// The web controller server's HTTP routes: the page, pairing, and the local CA for
/// phones to trust (docs/WEB-CONTROLLER.md). Every route checks Host; POST /api/pair
/// also checks Origin and Content-Type.
struct WebControllerRoutes: Sendable {
    let assets: StaticAssets
    let registry: WebDeviceRegistry
    let certificates: WebCertificates
    let guardian: WebRequestGuard
    let stats: WebControllerStats
    let hostName: String
    static let maxBody = 4096

    func add(to router: Router<WebRequestContext>) {
        router.get("/") { request, _ in try self.host(request) { self.asset("index.html") } }
        router.get("/app/:name") { request, context in
            try self.host(request) { self.asset("app/" + (context.parameters.get("name") ?? "")) }
        }
        router.get("/ca.crt") { request, _ in
            try self.host(request) {
                Self.response(.ok, type: "application/x-x509-ca-cert", Data(self.certificates.caDER),
                              extra: [.contentDisposition: "attachment; filename=\"remotion-ca.crt\""])
            }
        }
        // The CA's SHA-256 for the pairing screen. Not a proof (whoever serves the page serves
        // this too): it tells the person what to compare, in the phone's own certificate
        // screen, with what the host prints in the terminal (docs/SECURITY.md §9).
        router.get("/ca.sha256") { request, _ in
            try self.host(request) {
                Self.response(.ok, type: "text/plain; charset=utf-8", Data((self.certificates.caFingerprint + "\n").utf8))
            }
        }
        router.get("/ca.mobileconfig") { request, _ in
            try self.host(request) {
                let profile = LocalCertificateAuthority.mobileconfig(caDER: self.certificates.caDER, hostname: self.hostName)
                return Self.response(.ok, type: "application/x-apple-aspen-config", Data(profile.utf8),
                                     extra: [.contentDisposition: "attachment; filename=\"remotion-ca.mobileconfig\""])
            }
        }
        router.post("/api/pair") { request, context in
            if let refused = self.guardian.check(request.head, write: true) { return self.refuse(refused) }
            guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
                return self.refuse(.notJSON)
            }
            var request = request
            guard let body = try? await request.collectBody(upTo: Self.maxBody),
                  let pair = try? JSONDecoder().decode(PairRequest.self, from: Data(body.readableBytesView)) else {
                return Self.json(.badRequest, ["error": "send {\"secret\": …, \"name\": …} as JSON"])
            }
            // The link alone admits no one: the phone waits for the person at the computer.
            let address = context.remoteAddress?.ipAddress ?? "unknown"
            do {
                let (ticket, request) = try self.registry.redeem(secret: pair.secret, name: pair.name ?? "", address: address)
                return Self.json(.accepted, ["ticket": ticket, "code": request.code, "host": self.hostName,
                                             "wait": String(Int(WebPairingConsent.wait))])
            } catch let error as WebPairingError {
                return Self.json(.forbidden, ["error": error.description])
            } catch let error as WebPairingConsent.AskError {
                return Self.json(.tooManyRequests, ["error": error.description])
            } catch {
                return Self.json(.internalServerError, ["error": "the host could not take this request: \(error)"])
            }
        }
        router.post("/api/pair/wait") { request, _ in
            if let refused = self.guardian.check(request.head, write: true) { return self.refuse(refused) }
            guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
                return self.refuse(.notJSON)
            }
            var request = request
            guard let body = try? await request.collectBody(upTo: Self.maxBody),
                  let wait = try? JSONDecoder().decode(WaitRequest.self, from: Data(body.readableBytesView)) else {
                return Self.json(.badRequest, ["error": "send {\"ticket\": …} as JSON"])
            }
            do {
                switch try self.registry.collect(ticket: wait.ticket) {
                case .waiting(let code):
                    return Self.json(.accepted, ["code": code])
                case .accepted(let pairing):
                    self.stats.count(paired: 1)
                    return Self.json(.ok, ["id": pairing.device.id, "credential": pairing.credential,
                                           "host": self.hostName, "name": pairing.device.name])
                case .denied:
                    return Self.json(.forbidden, ["error": "the computer said no to this phone"])
                case .unknown:
                    return Self.json(.forbidden, ["error": "this pairing request is unknown or expired; scan a new QR code"])
                }
            } catch {
                return Self.json(.internalServerError, ["error": "the host could not store this phone: \(error)"])
            }
        }
    }

    struct WaitRequest: Decodable {
        var ticket: String
    }

    struct PairRequest: Decodable {
        var secret: String
        var name: String?
    }

    private func host(_ request: Request, _ body: () -> Response) throws -> Response {
        if let refused = guardian.check(request.head, write: false) { return refuse(refused) }
        return body()
    }

    func refuse(_ refusal: WebRequestGuard.Refusal) -> Response {
        stats.count(refusedRequest: refusal.rawValue)
        switch refusal {
        case .badHost: return Self.json(.misdirectedRequest, ["error": "this host is not served here"])
        case .badOrigin: return Self.json(.forbidden, ["error": "requests must come from the controller page itself"])
        case .notJSON: return Self.json(.unsupportedMediaType, ["error": "send JSON (Content-Type: application/json)"])
        }
    }

    private func asset(_ name: String) -> Response {
        guard let file = assets.files[name] else {
            return Self.response(.notFound, type: "text/plain; charset=utf-8", Data("not found\n".utf8))
        }
        return Self.response(.ok, type: file.contentType, file.body)
    }

    /// Every response: no caching, no sniffing, no framing, no referrer, and a CSP that
    /// allows only this origin (the page has no inline script or style).
    static func response(_ status: HTTPResponse.Status, type: String, _ body: Data,
                         extra: [HTTPField.Name: String] = [:]) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "no-store"
        headers[.xContentTypeOptions] = "nosniff"
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        headers[.contentSecurityPolicy] = "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
        for (k, v) in extra { headers[k] = v }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    static func json(_ status: HTTPResponse.Status, _ object: [String: String]) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return response(status, type: "application/json", data)
    }
}
