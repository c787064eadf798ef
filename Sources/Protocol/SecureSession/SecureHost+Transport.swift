
extension SecureHost {
    /// A transport datagram: one table lookup by receiver index, the replay window,
    /// then the AEAD. A datagram that fails changes no state.
    mutating func openTransport(_ d: UnsafeRawBufferPointer, now: Instant) -> SecureInbound {
        guard let index = try? TransportLayout.receiverIndex(of: d) else { return .drop(.malformed(.truncated)) }
        if !pairings.isEmpty, pairings[index] != nil { return .drop(.unexpectedMessage) }
        // The slot is worked on in place through its index: a copy of it would share the
        // replay window's storage, so committing the counter would copy (and allocate)
        // the window on every datagram.
        guard let id = indices[index], let position = slots.index(forKey: id) else { return .drop(.unknownSession) }
        // Which of the slot's key generations this index names (a plain switch, not a
        // key path: key paths are instantiated at run time, which costs microseconds
        // per datagram on this path).
        guard let (which, createdAt) = slots.values[position].generation(of: index) else { return .drop(.unknownSession) }
        guard !RekeyPolicy.isExpired(keysCreatedAt: createdAt, now: now) else { return .drop(.authenticationFailed) }
        // One plaintext buffer for every datagram (swapped out while in use).
        var plaintext = transportPlaintext
        transportPlaintext = []
        defer {
            plaintext.removeAll(keepingCapacity: true)
            transportPlaintext = plaintext
        }
        do {
            switch which {
            case .current: try slots.values[position].current!.receiver.open(d, into: &plaintext)
            case .next: try slots.values[position].next!.receiver.open(d, into: &plaintext)
            case .previous: try slots.values[position].previous!.receiver.open(d, into: &plaintext)
            }
        } catch {
            return .drop(error.dropReason)
        }
        slots.values[position].touched = now
        if which == .next {
            // The client switched to the new keys: send with them from now on, keep the
            // old ones for receiving stragglers until they expire.
            if let old = slots.values[position].previous { indices[old.localIndex] = nil }
            slots.values[position].previous = slots.values[position].current
            slots.values[position].current = slots.values[position].next
            slots.values[position].next = nil
            handshakesCompleted += 1
        }
        switch SealedMessage.decode(plaintext) {
        case let .success(message): return .message(message, session: id)
        case let .failure(error): return .drop(.malformed(error))
        }
    }
}

/// The three generations of keys a session slot can hold during a rekey.
enum KeyGeneration { case current, next, previous }

extension SecureHost.Slot {
    /// Which key generation `index` names, and when those keys were made.
    func generation(of index: UInt32) -> (KeyGeneration, Instant)? {
        if let k = current, k.localIndex == index { return (.current, k.createdAt) }
        if let k = next, k.localIndex == index { return (.next, k.createdAt) }
        if let k = previous, k.localIndex == index { return (.previous, k.createdAt) }
        return nil
    }

    func keys(_ g: KeyGeneration) -> SessionKeys? {
        switch g {
        case .current: current
        case .next: next
        case .previous: previous
        }
    }
}
