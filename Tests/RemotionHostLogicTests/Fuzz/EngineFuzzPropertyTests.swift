import Testing
import RemotionHostFuzzChecks
import RemotionProtocol
import RemotionHostLogic

/// FuzzHost's properties (`EngineProperties`: the engine through `EnginePair`, every origin
/// at once) on seeded random scripts in the normal suite, so every run checks what the
/// libFuzzer target checks: nothing traps, every output in range, the slots never exceeded,
/// no timer spins, nothing held and no pad open once every controller went.
@Suite struct EngineFuzzPropertyTests {
    @Test func randomScriptsOfEveryOriginKeepEveryProperty() {
        var g = SplitMix64(seed: 0x5041_4952)
        var total = EnginePair.Counts()
        for _ in 0..<300 {
            let bytes = (0..<Int(g.next() % 700)).map { _ in UInt8(truncatingIfNeeded: g.next()) }
            let (violation, counts) = EngineProperties.check(bytes)
            #expect(violation == nil, "\(violation.map(String.init(describing:)) ?? "")")
            total.injected += counts.injected; total.padStates += counts.padStates; total.padsClosed += counts.padsClosed
            total.toUDP += counts.toUDP; total.toPage += counts.toPage; total.toDSUServer += counts.toDSUServer
            total.dsuPackets += counts.dsuPackets; total.opened += counts.opened; total.closed += counts.closed
        }
        // The scripts reached every transport and every output, not only the decoders.
        #expect(total.opened > 300 && total.closed == total.opened, "\(total)")
        #expect(total.padStates > 100 && total.padsClosed > 100 && total.injected > 10 && total.dsuPackets > 100, "\(total)")
        #expect(total.toUDP > 100 && total.toPage > 100 && total.toDSUServer > 300, "\(total)")
    }

    /// A hand-written script: a UDP phone opens its session and presses A, a page opens and presses B,
    /// a pad is plugged in and presses its east button, time moves on; then everyone goes.
    /// The step decoder reaches the engine and the outputs from each origin.
    @Test func aHandWrittenScriptReachesEveryOrigin() {
        let bytes: [UInt8] = [
            0x00, 0x01,                                  // UDP phone 0 (its keys ready): a ping opens its session
            0x04, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0,    // its button A down (timestamp 0)
            0x07, 0x01,                                  // page 0 opens on a WebSocket
            0x09, 0x00, 0x01, 0x01,                      // its BUTTON frame: B down
            0x0B, 0x01, 0x00,                            // pad event7 plugged, with its gamepad node
            0x0C, 0x01, 0x00, 0x00, 0x01, 0x01,          // its key BTN_EAST down
            0x0D, 0x10,                                  // 65 ms pass
        ]
        let (violation, counts) = EngineProperties.check(bytes)
        #expect(violation == nil, "\(violation.map(String.init(describing:)) ?? "")")
        #expect(counts.opened == 3 && counts.closed == 3 && counts.padsClosed == 3, "\(counts)")
        #expect(counts.presses >= 2 && counts.toUDP >= 2, "the presses injected; pong and ack sealed for the phone: \(counts)")
    }
}
