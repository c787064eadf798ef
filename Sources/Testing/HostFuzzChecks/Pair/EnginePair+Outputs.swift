import RemotionProtocol
import RemotionHostLogic

/// The engine's outputs performed as the host's adapter performs them, into recording
/// outputs, each checked as it goes: input through the injector, pad states to the pad
/// output, samples to the DSU server, feedback to the controller's own transport.
extension EnginePair {
    /// Performs every output the engine decided since the last call, in order.
    func route() {
        var i = 0
        while i < pending.count {
            let output = pending[i]
            i += 1
            switch output {
            case let .opened(id, origin):
                counts.opened += 1
                record(.opened(id, origin))
            case let .closed(id, reason):
                counts.closed += 1
                record(.closed(id, reason))
                closed(id, reason)
            case let .session(id, o):
                perform(o, session: id)
            case let .sample(id, m):
                if let pointer = m.pointer { inject([pointer], session: id) }
                if let state = m.pad { padState(state, session: id) }
                if let feedback = m.feedback { send(feedback, to: id) }
                if let report = m.calibration { notify(id, .calibration(report)) }
                if let sample = m.sample { serveDSU(id, sample) }
            case let .observe(id, what):
                switch what {
                case .opened: _ = dsuServer.attach(id)
                case .closed: _ = dsuServer.detach(id)
                case .button: break
                }
            case .restoreBorrowedKeycodes:
                record(.restoreKeycodes)
            }
        }
        pending.removeAll(keepingCapacity: true)
    }

    private func perform(_ output: PipelineOutput, session id: SessionID) {
        switch output {
        case .input(let event): inject([event], session: id)
        case .inputs(let events): inject(events, session: id)
        case .releaseHeld:
            injector.endSession(id)
            takePosted()
        case .padOpened(let identity):
            if openPads[id] != nil { problem("a pad is opened once (\(id))") }
            openPads[id] = GamepadState(motion: .still(at: now))
            record(.padOpened(id, identity: identity))
        case .pad(let state):
            padState(state, session: id)
        case .padClosed(let rest):
            if openPads.removeValue(forKey: id) == nil { problem("a pad that closes was open (\(id))") }
            if let p = FuzzedHost.check(state: rest, atRest: true) { problem(p) }
            counts.padsClosed += 1
            record(.padClosed(id, rest: rest))
        case .feedback(let feedback): send(feedback, to: id)
        case .calibration, .profile, .text, .laser: notify(id, output)
        case .note, .calibrationSave: break
        }
    }

    /// Through the injector (its held-input tracker), to the recording backend.
    private func inject(_ events: [InputEvent], session id: SessionID) {
        for event in events {
            if let p = FuzzedHost.check(event) { problem("\(p): \(event)") }
        }
        do { try injector.apply(events, session: id) } catch { problem("the recording backend never fails: \(error)") }
        takePosted()
    }

    func takePosted() {
        for (id, event) in backend.posted {
            counts.injected += 1
            if event.isPress { counts.presses += 1 }
            record(.injected(id, event))
        }
        backend.posted.removeAll(keepingCapacity: true)
    }

    private func padState(_ state: GamepadState, session id: SessionID) {
        guard openPads[id] != nil else { problem("a pad state goes to an open pad (\(id))"); return }
        if engine.suspended, !state.isAtRest { problem("a pad reports nothing but rest while the desktop session is inactive") }
        if let p = FuzzedHost.check(state) { problem(p) }
        openPads[id] = state
        counts.padStates += 1
        record(.pad(id, state))
    }

    /// The DSU server's packets for the sample, decoded again and checked in range.
    private func serveDSU(_ id: SessionID, _ sample: MotionSample) {
        let packets = dsuServer.update(id, sample: sample, now: now)
        guard !packets.isEmpty else { return }
        for packet in packets {
            guard case .padData(let p)? = try? DSUCodec.decode(packet.bytes).message else {
                problem("a served DSU packet decodes")
                continue
            }
            let g = [p.gyro.pitch, p.gyro.yaw, p.gyro.roll], a = [p.accel.x, p.accel.y, p.accel.z]
            if !g.allSatisfy({ $0.isFinite && abs($0) <= DSUGyro.physicalLimit })
                || !a.allSatisfy({ $0.isFinite && abs($0) <= DSUAccel.physicalLimit }) {
                problem("DSU serves gyro within ±2000 °/s and acceleration within ±8 g (\(g), \(a))")
            }
        }
        counts.dsuPackets += packets.count
        record(.dsuServed(id, packets: packets.count))
    }

    /// A session ended: what it held was released and its pad closed by the outputs before
    /// (`EngineOutput.closed`); its transport is told where the engine ended it.
    private func closed(_ id: SessionID, _ reason: SessionCloseReason) {
        if let held = injector.held[id], !held.isEmpty { problem("a session that closed holds no input (\(id): \(held))") }
        if openPads[id] != nil { problem("a session that closed has no pad (\(id))") }
        if let k = pages.firstIndex(where: { $0.id == id }) {
            pages[k].id = nil
            counts.toPage += 1
            record(.toPage(k, .ended(reason)))
        }
        if let k = dsuSources.firstIndex(where: { $0.sessions.values.contains(id) }) {
            dsuSources[k].sessions = dsuSources[k].sessions.filter { $0.value != id }
        }
        if let k = localPads.firstIndex(where: { $0.id == id }) { localPads[k].id = nil }
    }

    /// Feedback on the controller's own transport: a sealed `feedback` datagram, the page's
    /// notice, the local pad's force feedback; a DSU server has no way back.
    func send(_ feedback: ControllerFeedback, to id: SessionID) {
        switch engine.origins[id] {
        case .udp?: perform(wire.feedback(id, feedback))
        case .web?: notify(id, .feedback(feedback))
        case .localPad(let key)?:
            counts.toLocalPad += 1
            record(.toLocalPad(key, feedback))
        case .dsu?, nil: break
        }
    }

    /// A notice for a page's session (nothing else can show it).
    private func notify(_ id: SessionID, _ output: PipelineOutput) {
        guard let k = pages.firstIndex(where: { $0.id == id }) else { return }
        counts.toPage += 1
        record(.toPage(k, .notice(output)))
    }
}
