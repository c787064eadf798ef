import RemotionProtocol

/// Constants and small value types of the cemuhook "DSU" protocol, version 1001.
///
/// Source: the v1993/cemuhook-protocol README (current revision, accelerometer in g,
/// with the packet counter), cross-checked against Dolphin's DualShockUDPClient,
/// yuzu's udp_client and DS4Windows' UdpServer.cs. UDP, little-endian, default port
/// 26760. Every packet starts with a 16-byte header and a u32 message type:
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 4 | magic `DSUS` (server) or `DSUC` (client) |
/// | 4 | 2 | protocol version, 1001 |
/// | 6 | 2 | length = packet size − 16 (the message type counts as payload) |
/// | 8 | 4 | CRC-32 (zlib) over the packet with this field zeroed |
/// | 12 | 4 | sender id, random per run |
/// | 16 | 4 | message type |
package enum DSU {
    package static let version: UInt16 = 1001
    package static let defaultPort: UInt16 = 26760
    /// Slots a server can report: 0…3.
    package static let slotCount = 4
    package static let headerSize = 16
    /// Header plus message type: the smallest valid packet.
    package static let minimumPacketSize = 20

    package static let serverMagic: [UInt8] = Array("DSUS".utf8)
    package static let clientMagic: [UInt8] = Array("DSUC".utf8)

    /// Total sizes of the packets this codec writes.
    package static let versionRequestSize = 20
    package static let versionReplySize = 24
    package static let portInfoReplySize = 32
    package static let padDataRequestSize = 28
    package static let padDataReplySize = 100
}

/// The u32 message type at offset 16. Requests and replies share a value; the magic
/// says which side sent it.
package enum DSUMessageType: UInt32, Sendable, CaseIterable {
    case version = 0x10_0000
    case portInfo = 0x10_0001
    case padData = 0x10_0002
}

/// Slot state (offset 1 of the shared slot header). Unknown values are kept, not
/// rejected, so an odd server still decodes.
package struct DSUSlotState: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package var rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    package static let disconnected = DSUSlotState(rawValue: 0)
    package static let reserved = DSUSlotState(rawValue: 1)
    package static let connected = DSUSlotState(rawValue: 2)
    package var description: String {
        switch rawValue {
        case 0: "disconnected"
        case 1: "reserved"
        case 2: "connected"
        default: "state-\(rawValue)"
        }
    }
}

/// Device model: 0 not applicable, 1 no or partial gyro, 2 full gyro.
package struct DSUDeviceModel: RawRepresentable, Hashable, Sendable {
    package var rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    package static let notApplicable = DSUDeviceModel(rawValue: 0)
    package static let partialGyro = DSUDeviceModel(rawValue: 1)
    package static let fullGyro = DSUDeviceModel(rawValue: 2)
}

/// Connection type: 0 not applicable, 1 USB, 2 Bluetooth.
package struct DSUConnectionType: RawRepresentable, Hashable, Sendable {
    package var rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    package static let notApplicable = DSUConnectionType(rawValue: 0)
    package static let usb = DSUConnectionType(rawValue: 1)
    package static let bluetooth = DSUConnectionType(rawValue: 2)
}

/// Battery: 0 n/a, 1 dying … 5 full, 0xEE charging, 0xEF charged.
package struct DSUBattery: RawRepresentable, Hashable, Sendable {
    package var rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    package static let notApplicable = DSUBattery(rawValue: 0)
    package static let dying = DSUBattery(rawValue: 1)
    package static let low = DSUBattery(rawValue: 2)
    package static let medium = DSUBattery(rawValue: 3)
    package static let high = DSUBattery(rawValue: 4)
    package static let full = DSUBattery(rawValue: 5)
    package static let charging = DSUBattery(rawValue: 0xEE)
    package static let charged = DSUBattery(rawValue: 0xEF)
}

/// A 48-bit MAC address in wire order: `rawValue`'s most significant of the low 48
/// bits is the first byte on the wire.
package struct DSUMAC: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    package var rawValue: UInt64
    package init(rawValue: UInt64) { self.rawValue = rawValue & 0xFFFF_FFFF_FFFF }

    /// From exactly six bytes, first byte first; nil for any other count.
    package init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 6 else { return nil }
        self.init(rawValue: bytes.reduce(0) { $0 << 8 | UInt64($1) })
    }

    package static let zero = DSUMAC(rawValue: 0)

    package var bytes: [UInt8] { (0..<6).map { UInt8(truncatingIfNeeded: rawValue >> (40 - 8 * UInt64($0))) } }

    package var description: String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: ":")
    }
}

/// The 11 bytes that start both a port-info reply and a pad-data reply.
package struct DSUSlotInfo: Hashable, Sendable {
    package var slot: UInt8
    package var state: DSUSlotState
    package var model: DSUDeviceModel
    package var connection: DSUConnectionType
    package var mac: DSUMAC
    package var battery: DSUBattery

    package init(slot: UInt8, state: DSUSlotState = .disconnected, model: DSUDeviceModel = .notApplicable,
                 connection: DSUConnectionType = .notApplicable, mac: DSUMAC = .zero,
                 battery: DSUBattery = .notApplicable) {
        self.slot = slot; self.state = state; self.model = model
        self.connection = connection; self.mac = mac; self.battery = battery
    }

    /// What a server reports for a slot nobody fills.
    package static func empty(slot: UInt8) -> DSUSlotInfo { DSUSlotInfo(slot: slot) }
}

/// The pad-data request's registration: flags 0 = all pads, bit 0 (1) = by slot,
/// bit 1 (2) = by MAC; both bits may be set (DS4Windows honours each).
package struct DSUPadRequest: Hashable, Sendable {
    package var flags: UInt8
    package var slot: UInt8
    package var mac: DSUMAC

    package init(flags: UInt8, slot: UInt8 = 0, mac: DSUMAC = .zero) {
        self.flags = flags; self.slot = slot; self.mac = mac
    }

    package static let allPads = DSUPadRequest(flags: 0)
    package static func slot(_ s: UInt8) -> DSUPadRequest { DSUPadRequest(flags: 1, slot: s) }
    package static func mac(_ m: DSUMAC) -> DSUPadRequest { DSUPadRequest(flags: 2, mac: m) }

    package var isAllPads: Bool { flags == 0 }
    package var bySlot: Bool { flags & 1 != 0 }
    package var byMAC: Bool { flags & 2 != 0 }
}
