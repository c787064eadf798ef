import Foundation
import NIOCore
import RemotionProtocol

/// A host sink that injects nothing (a host that only pairs).
public final class DiscardingSink: HostEventSink {
    public init() {}
    public func handle(_ action: HostAction<SocketAddress>, now: Instant) {}
    public func shutdown(now: Instant) {}
}

/// Host-side helpers to run a secure host with or without a pairing window.
public enum SecureHosting {
    /// A fresh one-time pairing secret (128 bits from the system CSPRNG).
    public static func newSecret() -> [UInt8] {
        var rng = SecureRandom()
        return rng.bytes(PairingCode.secretLength)
    }

    /// A framing factory for `HostService.start`: keys and trust from `store`; a pairing
    /// window for `secret` of `window` from start when given.
    public static func framing(store: KeyStore, pairing: (secret: [UInt8], window: Duration)? = nil,
                               desk: PairingDesk? = nil,
                               stats: SecurityStats = SecurityStats()) throws -> @Sendable () throws -> NoiseHostFraming {
        let key = try store.hostKey()
        let trusted = try store.trustedKeys()
        let trust = StoreTrust(store: store)
        return {
            let now = MonotonicClock.now()
            var framing = NoiseHostFraming(staticKey: key, trusted: trusted, trust: trust, desk: desk, stats: stats, now: now)
            if let pairing { framing.openPairing(psk: PairingCode.psk(secret: pairing.secret), until: now + pairing.window) }
            return framing
        }
    }

    /// A pairing address for the code: the bound address, or loopback for a wildcard bind.
    public static func codeAddress(bound: SocketAddress, advertise: String?) -> String {
        if let advertise { return advertise }
        guard let ip = bound.ipAddress, let port = bound.port else { return bound.displayText }
        if ip == "::" || ip == "0.0.0.0" {
            // A controller on the LAN needs an address it can reach: the first interface's.
            let first = SocketAddress.reachableAddresses(for: bound).first ?? "127.0.0.1"
            return first.contains(":") ? "[\(first)]:\(port)" : "\(first):\(port)"
        }
        return bound.displayText
    }
}
