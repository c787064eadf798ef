
extension SecureHost {
    /// A transport datagram: one table lookup by receiver index, the replay window,
    /// then the AEAD. A datagram that fails changes no state.
    mutating func openTransport(_ d: UnsafeRawBufferPointer, now: Instant) -> SecureInbound {
        guard let index = try? TransportLayout.receiverIndex(of: d) else { return .drop(.malformed(.truncated)) }
        if pairings[index] != nil { return .drop(.unexpectedMessage) }
        guard let id = indices[index], var slot = slots[id] else { return .drop(.unknownSession) }
        var plaintext: [UInt8] = []
        // Which of the slot's key generations this index names (a plain switch, not a
        // key path: key paths are instantiated at run time, which costs microseconds
        // per datagram on this path).
        let which: KeyGeneration
        if slot.current?.localIndex == index { which = .current }
        else if slot.next?.localIndex == index { which = .next }
        else if slot.previous?.localIndex == index { which = .previous }
        else { return .drop(.unknownSession) }
        guard var keys = slot.keys(which) else { return .drop(.unknownSession) }
        guard !RekeyPolicy.isExpired(keysCreatedAt: keys.createdAt, now: now) else { return .drop(.authenticationFailed) }
        do {
            try keys.receiver.open(d, into: &plaintext)
        } catch {
            return .drop(error.dropReason)
        }
        slot.setKeys(which, keys)
        slot.touched = now
        if which == .next {
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

/// The three generations of keys a session slot can hold during a rekey.
enum KeyGeneration { case current, next, previous }

extension SecureHost.Slot {
    func keys(_ g: KeyGeneration) -> SessionKeys? {
        switch g {
        case .current: current
        case .next: next
        case .previous: previous
        }
    }

    mutating func setKeys(_ g: KeyGeneration, _ keys: SessionKeys) {
        switch g {
        case .current: current = keys
        case .next: next = keys
        case .previous: previous = keys
        }
    }
}
