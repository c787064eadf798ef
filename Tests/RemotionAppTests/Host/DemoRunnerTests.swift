import Logging
import RemotionApp
import RemotionProtocol
import Testing

/// `remotion demo`'s numbers add up on a clean run, its injected inputs say which kind
/// they are, and a short demo streams for as long as asked.
@Suite(.serialized) struct DemoRunnerTests {
    @Test func aOneSecondDemoStreamsOneSecondAndItsNumbersAddUp() async throws {
        var options = DemoRunner.Options()
        options.duration = 1
        options.presses = DemoRunner.Options.defaultPresses(duration: 1)
        #expect(options.pressesPastTheEnd.isEmpty)
        let result = try await DemoRunner.run(options, logger: Logger(label: "demo-test"))
        #expect(result.connected)
        // 1 s at 120 Hz, not stretched to 2.7 s to fit the presses (cli-e2e also times it).
        #expect(result.client.motionSent <= 125, "\(result.client.motionSent) samples")
        #expect(result.client.datagramsSent == result.hostDatagramsReceived,
                "client sent \(result.client.datagramsSent), host received \(result.hostDatagramsReceived)")
        #expect(result.pairingDatagrams >= 2, "pairing messages 0 and 2 are counted apart")
        #expect(result.hostDrops.total == 0, "\(result.hostDrops.summary)")
        #expect(result.client.buttonEdges == 6 && result.edgesDelivered == 6)
        #expect(result.injectedButtons == ["mouse-left↓", "mouse-left↑", "mouse-right↓", "mouse-right↑", "key-Left↓", "key-Left↑"])
        #expect(result.heldAfterEnd == 0)
    }

    @Test func defaultPressesScaleDownButNeverUp() {
        #expect(DemoRunner.Options.defaultPresses(duration: 4) == DemoRunner.Options.defaultPresses(duration: 30))
        let short = DemoRunner.Options.defaultPresses(duration: 1)
        #expect(short.allSatisfy { $0.at + $0.hold < 1 })
        var options = DemoRunner.Options()
        options.duration = 2
        options.presses = [.init(button: .a, at: 1.5, hold: 1)]
        #expect(options.pressesPastTheEnd.count == 1)
    }
}
