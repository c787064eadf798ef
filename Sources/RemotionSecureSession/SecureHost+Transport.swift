import RemotionCore
import RemotionNoise
import RemotionSession
import RemotionWire

extension SecureHost {
    /// A transport datagram: one table lookup by receiver index, the replay window,
    /// then the AEAD. A datagram that fails changes no state.
    mutating func openTransport(_ d: UnsafeRawBufferPointer, now: Instant) -> SecureInbound {
        guard let index = try? TransportLayout.receiverIndex(of: d) else { return .drop(.malformed(.truncated)) }
        if pairings[index] != nil { return .drop(.unexpectedMessage) }
        guard let id = indices[index], var slot = slots[id] else { return .drop(.unknownSession) }
        var plaintext: [UInt8] = []
        let which: WritableKeyPath<Slot, SessionKeys?>
        if slot.current?.localIndex == index { which = \.current }
        else if slot.next?.localIndex == index { which = \.next }
        else if slot.previous?.localIndex == index { which = \.previous }
        else { return .drop(.unknownSession) }
        guard var keys = slot[keyPath: which] else { return .drop(.unknownSession) }
        guard !RekeyPolicy.isExpired(keysCreatedAt: keys.createdAt, now: now) else { return .drop(.authenticationFailed) }
        do {
            try keys.receiver.open(d, into: &plaintext)
        } catch {
            return .drop(error.dropReason)
        }
        slot[keyPath: which] = keys
        slot.touched = now
        if which == \Slot.next {
            // The client switched to the new keys: send with them from now on, keep the
            // old ones for receiving stragglers until they expire.
            if let old = slot.previous { indices[old.localIndex] = nil }
            slot.previous = slot.current
            slot.current = slot.next
            slot.next = nil
            handshakesCompleted += 1
        }
        slots[id] = slot
        switch SealedMessage.decode(plaintext) {
        case let .success(message): return .message(message, session: id)
        case let .failure(error): return .drop(.malformed(error))
        }
    }
}
