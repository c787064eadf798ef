import RemotionProtocol
import RemotionHostLogic

/// A gamepad on the host's computer (`--local-pads`): its evdev nodes as `LocalPad` reads
/// them, and its session (nil when refused or once it ended).
package struct LocalPadPeer {
    package let key: String
    var pad: LocalPad
    package internal(set) var id: SessionID?
    /// The nodes' state as the kernel holds it (what EVIOCGABS and EVIOCGKEY read after a
    /// SYN_DROPPED): each axis's last value and the keys down, as the events sent set them.
    var motionValues: [UInt16: Int32] = [:]
    var controlValues: [UInt16: Int32] = [:]
    var pressed: Set<UInt16> = []

    /// The events change the kernel's state of the nodes.
    mutating func kernelState(_ events: [EvdevInputEvent], motion: Bool) {
        for e in events {
            if e.type == EvdevCode.absType {
                if motion { motionValues[e.code] = e.value } else { controlValues[e.code] = e.value }
            } else if e.type == EvdevCode.keyType, !motion {
                if e.value != 0 { pressed.insert(e.code) } else { pressed.remove(e.code) }
            }
        }
    }
}

extension EnginePair {
    /// hid-playstation's Motion Sensors node: 8192 per g, 1024 per °/s, the full int32 range.
    package static let padMotionAxes: [UInt16: EvdevAbsInfo] = Dictionary(uniqueKeysWithValues: EvdevCode.motionAxes.map {
        ($0, EvdevAbsInfo(minimum: .min, maximum: .max, resolution: $0 <= EvdevCode.absZ ? 8192 : 1024))
    })
    /// Its gamepad node: sticks and triggers 0…255 (centred at 128), the d-pad hat −1…1.
    package static let padControlAxes: [UInt16: EvdevAbsInfo] = Dictionary(uniqueKeysWithValues: EvdevCode.padAxes.map {
        let hat = $0 == EvdevCode.absHat0X || $0 == EvdevCode.absHat0Y
        let trigger = $0 == EvdevCode.absZ || $0 == EvdevCode.absRZ
        return ($0, EvdevAbsInfo(value: hat || trigger ? 0 : 128, minimum: hat ? -1 : 0, maximum: hat ? 1 : 255))
    })

    /// A DualSense is plugged in as `key` (its gamepad node with it unless `controls` is
    /// false; `pressed`: the keys down at open): its session, or nil when the host is full.
    @discardableResult
    package func plugPad(_ key: String, controls: Bool = true, pressed: Set<UInt16> = []) -> SessionID? {
        guard !localPads.contains(where: { $0.key == key }),
              var pad = try? LocalPad(driver: .playstation, motionAxes: Self.padMotionAxes) else { return nil }
        let down = controls ? pad.attachControls(axes: Self.padControlAxes, pressed: pressed) : []
        let id = engine.open(from: .localPad(key), name: "pad \(key)", screen: Self.screen, now: now, random: &random,
                             into: &pending)
        route()
        var peer = LocalPadPeer(key: key, pad: pad, id: id)
        peer.pressed = controls ? pressed : []
        peer.controlValues = controls ? Self.padControlAxes.mapValues(\.value) : [:]
        localPads.append(peer)
        padDeliver(localPads.count - 1, down)
        return id
    }

    /// Events read from pad `key`'s Motion Sensors node; after a SYN_DROPPED the node's state
    /// is read again, as the host's reader does.
    package func padMotionEvents(_ key: String, _ events: [EvdevInputEvent]) {
        guard let k = localPads.firstIndex(where: { $0.key == key }) else { return }
        localPads[k].kernelState(events, motion: true)
        let state = localPads[k].motionValues
        padDeliver(k, localPads[k].pad.motionEvents(events, stateAfterDrop: { state }))
    }

    /// Events read from pad `key`'s gamepad node, resynced the same way after a SYN_DROPPED.
    package func padControlEvents(_ key: String, _ events: [EvdevInputEvent]) {
        guard let k = localPads.firstIndex(where: { $0.key == key }) else { return }
        localPads[k].kernelState(events, motion: false)
        let state = (pressed: localPads[k].pressed, values: localPads[k].controlValues)
        padDeliver(k, localPads[k].pad.controlEvents(events, stateAfterDrop: { state }))
    }

    /// One motion frame: raw axis values (accelerometer x y z, gyroscope x y z), the
    /// driver's MSC_TIMESTAMP, SYN_REPORT; every event stamped with the kernel's time, which
    /// is the host's clock (the reader sets CLOCK_MONOTONIC: EVIOCSCLOCKID).
    package func padMotion(_ key: String, raw: [Int32], timestampMicros: UInt32) {
        let t = now.microseconds
        var events = zip(EvdevCode.motionAxes, raw).map {
            EvdevInputEvent(timeMicros: t, type: EvdevCode.absType, code: $0.0, value: $0.1)
        }
        events.append(EvdevInputEvent(timeMicros: t, type: EvdevCode.mscType, code: EvdevCode.mscTimestamp,
                                      value: Int32(bitPattern: timestampMicros)))
        events.append(EvdevInputEvent(timeMicros: t, type: EvdevCode.synType, code: EvdevCode.synReport, value: 0))
        padMotionEvents(key, events)
    }

    /// A key of pad `key`'s gamepad node goes down or up (one frame, at the kernel's time).
    package func padKey(_ key: String, _ code: UInt16, down: Bool) {
        let t = now.microseconds
        padControlEvents(key, [EvdevInputEvent(timeMicros: t, type: EvdevCode.keyType, code: code, value: down ? 1 : 0),
                               EvdevInputEvent(timeMicros: t, type: EvdevCode.synType, code: EvdevCode.synReport, value: 0)])
    }

    /// The reader heard from pad `key` (its keep-alive, `LocalPadNotice.alive`).
    package func padAlive(_ key: String) {
        guard let id = localPads.first(where: { $0.key == key })?.id else { return }
        engine.perform(.heard, for: id, screen: Self.screen, now: now, into: &pending)
        route()
    }

    /// Pad `key` is unplugged: its gamepad node's buttons released, then its session closes.
    package func unplugPad(_ key: String) {
        guard let k = localPads.firstIndex(where: { $0.key == key }) else { return }
        padDeliver(k, localPads[k].pad.detachControls())
        if let id = localPads[k].id {
            engine.perform(.close(.clientDisconnected(.user)), for: id, screen: Self.screen, now: now, into: &pending)
            route()
        }
        localPads.remove(at: k)
    }

    /// The pad's events as the host's local-pads adapter gives them to the engine.
    private func padDeliver(_ k: Int, _ events: [LocalPad.Event]) {
        for event in events {
            guard let id = localPads[k].id else { return }
            switch event {
            case .sample(let s):
                engine.perform(.motion(s, latencyMicros: nil), for: id, screen: Self.screen, now: now, into: &pending)
            case let .button(b, down):
                engine.perform(.button(b, isDown: down), for: id, screen: Self.screen, now: now, into: &pending)
            }
            route()
        }
    }
}
