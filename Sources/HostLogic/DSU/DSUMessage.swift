import RemotionProtocol

/// One DSU message. Requests come from clients (`DSUC`), replies from servers (`DSUS`).
package enum DSUMessage: Hashable, Sendable {
    /// 0x100000 from a client: no payload.
    case versionRequest
    /// 0x100000 from a server: the highest protocol version it speaks (u16, then two
    /// zero bytes as Dolphin and DS4Windows send).
    case versionReply(UInt16)
    /// 0x100001 from a client: i32 count (0…4), then that many slot bytes (each < 4).
    case portInfoRequest(slots: [UInt8])
    /// 0x100001 from a server: one 32-byte reply per requested slot.
    case portInfo(DSUSlotInfo)
    /// 0x100002 from a client: subscribe to pad data (all, by slot, by MAC).
    case padDataRequest(DSUPadRequest)
    /// 0x100002 from a server: the 100-byte pad data.
    case padData(DSUPadData)

    package var type: DSUMessageType {
        switch self {
        case .versionRequest, .versionReply: .version
        case .portInfoRequest, .portInfo: .portInfo
        case .padDataRequest, .padData: .padData
        }
    }

    /// True for replies (a server sends them with magic `DSUS`).
    package var isFromServer: Bool {
        switch self {
        case .versionReply, .portInfo, .padData: true
        case .versionRequest, .portInfoRequest, .padDataRequest: false
        }
    }
}

/// A whole packet: who sent it (the random per-run id) and what.
package struct DSUPacket: Hashable, Sendable {
    package var senderID: UInt32
    package var message: DSUMessage
    package init(senderID: UInt32, message: DSUMessage) { self.senderID = senderID; self.message = message }
}

/// Why a datagram was not accepted as a DSU packet. Every case is a counted drop.
package enum DSUDecodeError: String, Error, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Shorter than the 20-byte header + type, or than the message's fixed payload.
    case truncated
    /// Not `DSUS` / `DSUC`.
    case badMagic
    /// Protocol version other than 1001.
    case badVersion
    /// The length field claims more bytes than arrived, or fewer than the type needs.
    case badLength
    /// CRC-32 mismatch.
    case badCRC
    /// Port-info request count outside 0…4.
    case countOutOfRange
    /// A slot number ≥ 4 where a slot is required.
    case slotOutOfRange
    /// Pad-data request flags with bits other than 1 and 2.
    case badFlags
    /// Message type not 0x100000…0x100002 (includes the unofficial rumble types).
    case unknownType

    package var description: String {
        switch self {
        case .truncated: "truncated"
        case .badMagic: "bad-magic"
        case .badVersion: "bad-version"
        case .badLength: "bad-length"
        case .badCRC: "bad-crc"
        case .countOutOfRange: "count-out-of-range"
        case .slotOutOfRange: "slot-out-of-range"
        case .badFlags: "bad-flags"
        case .unknownType: "unknown-type"
        }
    }
}

/// Why a state machine dropped something: a decode error, or a valid packet that does
/// not fit (wrong direction, stale counter, …).
package enum DSUDropReason: Hashable, Sendable, CustomStringConvertible {
    case decode(DSUDecodeError)
    /// A server packet reached the server (or a client packet the client).
    case wrongDirection
    /// A pad-data reply whose counter is not newer than the slot's last one.
    case staleCounter
    /// A new client arrived while `maxClients` subscriptions are live.
    case tooManyClients
    /// A by-MAC subscription beyond the per-client limit.
    case tooManyMACs
    /// A pad-data reply with a NaN or infinite gyro or accelerometer value.
    case notFinite

    package var description: String {
        switch self {
        case .decode(let e): e.description
        case .wrongDirection: "wrong-direction"
        case .staleCounter: "stale-counter"
        case .tooManyClients: "too-many-clients"
        case .tooManyMACs: "too-many-macs"
        case .notFinite: "not-finite"
        }
    }
}

/// Drop counts by reason.
package struct DSUDropCounters: Hashable, Sendable, CustomStringConvertible {
    package private(set) var counts: [DSUDropReason: Int] = [:]
    package init() {}

    package subscript(_ reason: DSUDropReason) -> Int { counts[reason, default: 0] }
    package subscript(_ error: DSUDecodeError) -> Int { counts[.decode(error), default: 0] }
    package var total: Int { counts.values.reduce(0, +) }

    package mutating func count(_ reason: DSUDropReason) { counts[reason, default: 0] += 1 }

    /// "bad-crc=2 truncated=1", sorted by name.
    package var description: String {
        counts.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
    }
}
