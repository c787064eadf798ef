import Foundation
import RemotionHostLogic
import RemotionNetwork

/// GET /api/devices: what the dashboard's pairing card shows. Reads are open to local
/// programs like the snapshot (names, addresses, request codes: nothing that admits anyone —
/// answering a request needs the token or the 0600 control socket).
package struct DevicesView: Codable, Sendable, Equatable {
    /// Whether the host serves a web controller (phones can pair).
    package var web: Bool
    package var waiting: [Waiting] = []
    package var phones: [Phone] = []
    package var controllers: [Controller] = []

    package init(web: Bool, waiting: [Waiting] = [], phones: [Phone] = [], controllers: [Controller] = []) {
        self.web = web
        self.waiting = waiting
        self.phones = phones
        self.controllers = controllers
    }

    /// A phone waiting for the person at the computer (`request` is what an answer names).
    package struct Waiting: Codable, Sendable, Equatable {
        package var request: String
        package var code: String
        package var name: String
        package var address: String
        /// Whole seconds left before it expires.
        package var seconds: Int

        package init(_ r: WebPairingConsent.Request, now: Date) {
            request = r.reference
            code = r.code
            name = r.name
            address = r.address
            seconds = Int(max(0, r.expires.timeIntervalSince(now)).rounded(.up))
        }
    }

    package struct Phone: Codable, Sendable, Equatable {
        package var id: String
        package var name: String
        /// ISO 8601.
        package var paired: String
        package var typing: Bool

        package init(_ d: WebDevice) {
            id = d.id
            name = d.name
            paired = d.created.formatted(.iso8601)
            typing = d.mayType
        }
    }

    package struct Controller: Codable, Sendable, Equatable {
        package var fingerprint: String
        package var name: String
        package var paired: String

        package init(_ c: PairedController) {
            fingerprint = c.fingerprint
            name = c.name
            paired = c.pairedAt.formatted(.iso8601)
        }
    }
}
