import RemotionProtocol

/// Why the host dropped input, and where: one typed value from the adapter that dropped it to
/// the status snapshot. Its words (`key`) are made only where people and the dashboard read
/// them (the snapshot's JSON `drops`, the terminal), and are the words they always were:
/// "stale-motion", "kernel-receive-buffer", "controllers too-many-sessions",
/// "dsu-serve bad-crc", "dsu 127.0.0.1:26760 wrong-sender", "local-pads timestamp-backwards",
/// "gamepad pad-not-created".
package enum HostDrop: Hashable, Sendable {
    /// The wire protocol's (the controllers' UDP socket: the session machine and the framing).
    case wire(DropReason)
    /// Datagrams the kernel discarded before the host read them (its receive buffer was full).
    case kernelReceiveBuffer
    /// A controller of another transport refused: every slot was taken.
    case controllersFull
    /// The DSU server's (`--dsu-serve`).
    case dsuServer(DSUDropReason)
    /// A DSU source's, by the server it reads (shown as its address).
    case dsuSource(server: String, DSUSourceDrop)
    /// The gamepads on this computer (`--local-pads`).
    case localPads(LocalPadDrop)
    /// The virtual pads (`--gamepad`).
    case gamepad(VirtualPadDrop)

    /// The words the snapshot's JSON and the terminal show.
    package var key: String {
        switch self {
        case .wire(let reason): "\(reason)"
        case .kernelReceiveBuffer: "kernel-receive-buffer"
        case .controllersFull: "controllers too-many-sessions"
        case .dsuServer(let reason): "dsu-serve \(reason)"
        case let .dsuSource(server, reason): "dsu \(server) \(reason)"
        case .localPads(let reason): "local-pads \(reason.rawValue)"
        case .gamepad(let reason): "gamepad \(reason.rawValue)"
        }
    }

    /// The drop `key` names (a snapshot read back from its JSON); nil for words no drop has.
    package init?(key: String) {
        if let known = Self.fixed[key] {
            self = known
            return
        }
        // "dsu ADDRESS REASON": the address has no space, the reason is the last word.
        let words = key.split(separator: " ", omittingEmptySubsequences: false)
        guard words.count == 3, words[0] == "dsu", !words[1].isEmpty,
              let reason = DSUSourceDrop.all.first(where: { "\($0)" == words[2] }) else { return nil }
        self = .dsuSource(server: String(words[1]), reason)
    }

    /// Every drop without a free part, by its words.
    private static let fixed: [String: HostDrop] = {
        var all: [HostDrop] = [.kernelReceiveBuffer, .controllersFull]
        all += wireReasons.map(HostDrop.wire)
        all += DSUDropReason.all.map(HostDrop.dsuServer)
        all += LocalPadDrop.allCases.map(HostDrop.localPads)
        all += VirtualPadDrop.allCases.map(HostDrop.gamepad)
        return Dictionary(all.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    }()

    /// Every reason the wire protocol drops a datagram for.
    package static let wireReasons: [DropReason] = {
        var all: [DropReason] = WireError.allCases.map(DropReason.malformed)
        for reason in [DropReason.unsupportedKind, .unknownSession, .addressMismatch, .tooManySessions, .staleMotion,
                       .unexpectedMessage, .authenticationFailed, .rateLimited, .replayed] {
            // An exhaustive switch: a new reason does not compile until it is listed here.
            switch reason {
            case .malformed, .unsupportedKind, .unknownSession, .addressMismatch, .tooManySessions, .staleMotion,
                 .unexpectedMessage, .authenticationFailed, .rateLimited, .replayed: all.append(reason)
            }
        }
        return all
    }()
}


extension Dictionary where Value == Int {
    /// "reason=count" pairs sorted by their words ("bad-crc=2 truncated=1"), or "none".
    package func dropWords(_ words: (Key) -> String) -> String {
        let text = map { "\(words($0.key))=\($0.value)" }.sorted().joined(separator: " ")
        return text.isEmpty ? "none" : text
    }

    /// Every count of `other` added to this table's, under `key`.
    package mutating func add<Other: Hashable>(_ other: [Other: Int], as key: (Other) -> Key) {
        for (reason, n) in other { self[key(reason), default: 0] &+= n }
    }

    /// This table with every count of `other` added under `key`.
    package func adding<Other: Hashable>(_ other: [Other: Int], as key: (Other) -> Key) -> Self {
        var all = self
        all.add(other, as: key)
        return all
    }
}

/// Why a DSU source dropped a packet: its state machine's reason, or a packet from an
/// address other than its server's.
package enum DSUSourceDrop: Hashable, Sendable, CustomStringConvertible {
    case machine(DSUDropReason)
    /// A datagram from an address other than the server's (a connected socket should not pass one).
    case wrongSender

    package var description: String {
        switch self {
        case .machine(let reason): "\(reason)"
        case .wrongSender: "wrong-sender"
        }
    }

    static let all: [DSUSourceDrop] = DSUDropReason.all.map(DSUSourceDrop.machine) + [.wrongSender]
}

extension DSUDropReason {
    /// Every reason a DSU state machine drops a packet for.
    static let all: [DSUDropReason] = DSUDecodeError.allCases.map(DSUDropReason.decode)
        + [.wrongDirection, .staleCounter, .tooManyClients, .tooManyMACs, .notFinite]
}

/// Why the virtual pads (`--gamepad`) dropped something.
package enum VirtualPadDrop: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The kernel refused to make a controller's pad (no /dev/uhid, no permission).
    case padNotCreated = "pad-not-created"
    /// An input report the pad's device did not take.
    case reportNotWritten = "report-not-written"

    package var description: String { rawValue }
}
