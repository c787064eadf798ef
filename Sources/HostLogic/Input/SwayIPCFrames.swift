/// sway's IPC framing (i3-ipc, sway-ipc(7)), sans-IO: every message both ways is the magic
/// `i3-ipc`, the payload's length and the message's type (each a 32-bit integer in the
/// machine's own byte order: sway and the host share the machine), then the payload (JSON).
/// An event's type has the high bit set (`window` is 0x80000003).
package enum SwayIPC {
    package static let magic: [UInt8] = Array("i3-ipc".utf8)
    package static let headerSize = 14
    /// Requests the focus watcher sends.
    package static let subscribe: UInt32 = 2
    package static let getTree: UInt32 = 4
    /// The `window` event (a view got the focus, closed, changed its title, ...).
    package static let windowEvent: UInt32 = 0x8000_0003

    /// One message as sway reads it.
    package static func message(_ type: UInt32, _ payload: [UInt8] = []) -> [UInt8] {
        var out = magic
        out.reserveCapacity(headerSize + payload.count)
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: payload.count)) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: type) { out.append(contentsOf: $0) }
        out.append(contentsOf: payload)
        return out
    }
}

/// One frame read from sway: its type and payload (at most `SwayIPCDecoder.maxPayload` bytes).
package struct SwayIPCFrame: Sendable, Equatable {
    package var type: UInt32
    package var payload: [UInt8]

    package init(type: UInt32, payload: [UInt8]) {
        self.type = type
        self.payload = payload
    }
}

/// Cuts sway's byte stream into frames, whatever the reads' sizes. Bounded: it keeps at most
/// one header and one payload of `maxPayload` bytes; a longer frame (a huge tree) is skipped
/// as it streams by and counted (`oversized`). A header without the magic means the stream is
/// not sway's or lost its place: it cannot be resynchronised, so the decoder stops
/// (`broken`) and the adapter closes the connection.
package struct SwayIPCDecoder: Sendable {
    /// A tree of a few hundred windows is some hundred KiB; anything near this is not a desktop.
    package static let maxPayload = 4 << 20

    package let maxPayload: Int
    /// Frames longer than `maxPayload`, skipped.
    package private(set) var oversized = 0
    /// The stream had no magic where a header began: nothing more is read.
    package private(set) var broken = false

    private var buffer: [UInt8] = []
    /// Bytes of an oversized frame still to skip.
    private var skipping = 0

    package init(maxPayload: Int = SwayIPCDecoder.maxPayload) {
        self.maxPayload = max(0, maxPayload)
    }

    /// The frames `bytes` completes, in order.
    package mutating func feed(_ bytes: some Collection<UInt8>) -> [SwayIPCFrame] {
        guard !broken else { return [] }
        var input = bytes[...]
        var frames: [SwayIPCFrame] = []
        while !input.isEmpty {
            if skipping > 0 {
                let n = min(skipping, input.count)
                skipping -= n
                input = input.dropFirst(n)
                continue
            }
            let wanted = buffer.count < SwayIPC.headerSize ? SwayIPC.headerSize : SwayIPC.headerSize + length(ofHeaderIn: buffer)
            let take = min(wanted - buffer.count, input.count)
            buffer.append(contentsOf: input.prefix(take))
            input = input.dropFirst(take)
            guard buffer.count == wanted else { continue }
            if wanted == SwayIPC.headerSize {
                guard buffer.prefix(6).elementsEqual(SwayIPC.magic) else {
                    broken = true
                    buffer = []
                    return frames
                }
                let length = length(ofHeaderIn: buffer)
                if length > maxPayload {
                    oversized += 1
                    skipping = length
                    buffer.removeAll(keepingCapacity: true)
                    continue
                }
                if length > 0 { continue }
            }
            frames.append(SwayIPCFrame(type: word(at: 10, in: buffer), payload: Array(buffer[SwayIPC.headerSize...])))
            buffer.removeAll(keepingCapacity: false)
        }
        return frames
    }

    /// The payload length a complete header announces.
    private func length(ofHeaderIn header: [UInt8]) -> Int { Int(clamping: word(at: 6, in: header)) }

    private func word(at offset: Int, in bytes: [UInt8]) -> UInt32 {
        var value: UInt32 = 0
        withUnsafeMutableBytes(of: &value) { raw in
            for i in 0..<4 { raw[i] = bytes[offset + i] }
        }
        return value
    }
}
