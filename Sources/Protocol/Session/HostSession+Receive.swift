/// One open session's part of `HostStateMachine.receive`: what a message from its own address
/// does to it, run in place in the machine's table (`storedSessions.values[i]`), so a motion
/// packet costs one lookup and copies no record (docs/BENCHMARKS.md, "the host's own
/// microseconds"). What only the machine can do (count a drop, close the session) comes back
/// as the outcome.
extension HostSession {
    /// What the machine does after a session took a message.
    @usableFromInline
    enum ReceiveOutcome {
        case taken
        /// A message only a host sends (pong, ack, feedback): the session is untouched.
        case unexpected
        /// An older motion packet than one already seen (newest wins).
        case stale
        /// The controller said goodbye.
        case disconnect(DisconnectReason)
    }

    /// A ping, button batch, motion packet or goodbye heard at `now`; its actions appended to
    /// `actions`. A message only a host sends changes nothing, not even when it was last heard.
    @inlinable
    mutating func receive(_ message: Message, now: Instant, into actions: inout [HostAction<Address>]) -> ReceiveOutcome {
        switch message {
        case .pong, .ack, .feedback: return .unexpected
        case .ping, .buttons, .motion, .disconnect: break
        }
        lastHeard = now
        stats.datagrams += 1
        switch message {
        case let .ping(clientTime, offset):
            clockOffsetMicros = offset
            actions.append(pong(clientTime, now: now))
        case let .buttons(events):
            deliver(receiver.receive(events), to: &actions)
            lastButtons = now
            lastAck = now
            actions.append(.send(.ack(receiver.ack), session: id, to: address))
        case let .motion(packet):
            stats.motionPackets += 1
            guard acceptMotion(packet.sequence) else {
                stats.staleMotion += 1
                return .stale
            }
            let repaired = receiver.repair(from: packet, delivered: buttons)
            if !repaired.isEmpty {
                stats.repairedEdges += repaired.count
                deliver(repaired, to: &actions)
                lastAck = now
                actions.append(.send(.ack(receiver.ack), session: id, to: address))
            } else if let sent = lastButtons, now - sent < HostStateMachine<Address>.ackRepeatWindow,
                      let acked = lastAck, now - acked >= HostStateMachine<Address>.ackRepeatInterval {
                // Acks travel once and may be lost; while button traffic is recent, repeat
                // the ack on the motion stream's clock so the client stops resending soon.
                lastAck = now
                actions.append(.send(.ack(receiver.ack), session: id, to: address))
            }
            let sampleOnHostClock = Int64(truncatingIfNeeded: packet.sample.timestampMicros) &+ clockOffsetMicros
            let latency = HostStateMachine<Address>.plausibleLatency(now.microseconds &- sampleOnHostClock)
            actions.append(.motion(id, packet.sample, latencyMicros: latency))
        case let .disconnect(reason):
            return .disconnect(reason)
        case .pong, .ack, .feedback:
            return .unexpected   // refused above
        }
        return .taken
    }

    /// The edges among `events` that change what is held, in order, as actions.
    @inlinable
    mutating func deliver(_ events: [ButtonEvent], to actions: inout [HostAction<Address>]) {
        for e in events where buttons.contains(e.button) != e.isDown {
            buttons.set(e.button, down: e.isDown)
            stats.buttonEdges += 1
            actions.append(.button(id, e.button, isDown: e.isDown))
        }
    }

    /// The answer to a ping sent at the client's `clientTime`.
    @inlinable
    func pong(_ clientTime: UInt64, now: Instant) -> HostAction<Address> {
        .send(.pong(echoClientTimeMicros: clientTime, hostTimeMicros: UInt64(max(0, now.microseconds))), session: id, to: address)
    }
}
