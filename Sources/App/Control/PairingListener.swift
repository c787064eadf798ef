import Foundation
import NIOCore
import RemotionProtocol
import RemotionNetwork

/// `remotion pair --listen` when no `remotion host` runs: a Noise host on its own UDP port
/// that only pairs. Its sink discards everything (a paired controller's motion or buttons
/// are never injected here); it serves one controller within the window and stops. The
/// CLI parses the flags and asks the person at the computer; this builds and runs the host.
package enum PairingListener {
    /// What the CLI needs to show before waiting: the code to type on the controller.
    package struct Opened: Sendable {
        package let code: PairingCode
        package let hostFingerprint: String
    }

    /// Why the listener could not start or store a pairing (one line, for the user).
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Runs the window: `opened` once the port is bound, `ask` for each request (true
    /// admits it), `refused` after a request was refused. Returns the paired controller,
    /// or nil when the window closed without one.
    package static func run(store: KeyStore, bind: String, port: Int, window: Double, advertise: String?,
                            opened: (Opened) -> Void,
                            ask: @escaping @Sendable (_ name: String, _ fingerprint: String) async -> Bool,
                            refused: () -> Void) async throws -> PairedController? {
        let secret = SecureHosting.newSecret()
        let desk = PairingDesk()
        let makeFraming: @Sendable () throws -> NoiseHostFraming
        let hostKey: KeyPair
        do {
            hostKey = try store.hostKey()
            makeFraming = try SecureHosting.framing(store: store, pairing: (secret, .secondsDouble(window)), desk: desk)
        } catch { throw Failure(description: "\(error)") }
        let host: HostService<NoiseHostFraming, SinkDriver<DiscardingSink>>
        do {
            host = try await HostService.start(host: bind, port: port, makeFraming: makeFraming, makeSink: { DiscardingSink() })
        } catch {
            throw Failure(description: await BusyPort.message(for: error, bind: bind, port: port, dataDirectory: store.directory))
        }
        opened(Opened(code: PairingCode(hostKey: hostKey.publicKey, secret: secret,
                                        address: SecureHosting.codeAddress(bound: host.localAddress, advertise: advertise)),
                      hostFingerprint: KeyFingerprint.fingerprint(of: hostKey.publicKey)))
        let timeout = Task {
            try? await Task.sleep(for: .seconds(window))
            desk.finish()
        }
        defer { timeout.cancel() }
        var paired: PairedController?
        for await request in desk.requests {
            let accept = await ask(request.name, request.fingerprint)
            if accept {
                do { paired = try store.addPaired(name: request.name, publicKey: request.publicKey) } catch {
                    desk.decide(request, accept: false)
                    await host.shutdown()
                    throw Failure(description: "\(error)")
                }
            }
            desk.decide(request, accept: accept)
            // The answer rides on the controller's next retransmission (every 0.5 s).
            try? await Task.sleep(for: .milliseconds(1500))
            if accept { break }
            refused()
        }
        await host.shutdown()
        return paired
    }
}
