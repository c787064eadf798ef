import Foundation
@testable import RemotionApp
import RemotionHostLogic
import RemotionTestSupport
import Testing

/// The control socket's phone-pairing commands (`WebControllerService.controlHandlers`) on a
/// real registry: `remotion pair --web` gets its link's name and asks only for the phones
/// that used that link; a decision names the request (code and id), never the code alone.
@Suite struct WebPairingControlTests {
    let dir: TemporaryDirectory
    let registry: WebDeviceRegistry
    let commands: ControlCommands.Web

    init() throws {
        dir = try TemporaryDirectory()
        registry = try WebDeviceRegistry(store: WebCredentialStore(directory: dir.url.appendingPathComponent("remotion")))
        commands = WebControllerService.controlHandlers(registry: registry, stats: WebControllerStats(),
                                                        caFingerprint: "AB") { "https://h/#pair=\($0)" }
    }

    func send(_ handler: ControlHandler, _ fields: [String: ControlValue] = [:]) async -> ControlResponse {
        await handler(ControlRequest("x", fields), ControlConnection(id: 1))
    }

    func requests(_ response: ControlResponse) -> [[String: ControlValue]] {
        guard case .array(let items)? = response.fields["requests"] else { return [] }
        return items.compactMap { if case .object(let o) = $0 { o } else { nil } }
    }

    /// `pair --web` answered the oldest waiting phone, whichever link it used.
    @Test func pairWebSeesOnlyThePhoneThatUsedItsOwnLink() async throws {
        let other = registry.openPairing()   // the host's own QR code, say
        let window = await send(commands.pairWindow)
        let url = try #require(window.string("url")), link = try #require(window.string("link"))
        let secret = String(url.split(separator: "=").last!)
        _ = try registry.redeem(secret: other, name: "first", address: "10.0.0.2")
        _ = try registry.redeem(secret: secret, name: "own", address: "10.0.0.3")
        let mine = requests(await send(commands.pairRequests, ["link": .string(link)]))
        #expect(mine.count == 1 && mine.first?["name"] == .string("own") && mine.first?["link"] == .string(link))
        #expect(requests(await send(commands.pairRequests)).count == 2)
    }

    @Test func aDecisionNamesTheRequestNotOnlyItsCode() async throws {
        let (_, request) = try registry.redeem(secret: registry.openPairing(), name: "phone", address: "10.0.0.4")
        let bare = await send(commands.pairDecide, ["code": .string(request.code), "accept": .bool(true)])
        #expect(!bare.ok)
        let wrong = await send(commands.pairDecide, ["code": .string(request.code), "request": .string("00000000"), "accept": .bool(true)])
        #expect(!wrong.ok && registry.pendingPairings().count == 1)
        let right = await send(commands.pairDecide, ["code": .string(request.code), "request": .string(request.id), "accept": .bool(true)])
        #expect(right.ok && right.fields["accepted"] == .bool(true) && registry.pendingPairings().isEmpty)
    }
}
