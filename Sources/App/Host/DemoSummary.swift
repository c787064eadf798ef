import RemotionProtocol

extension DemoRunner.Result {
    /// The summary `remotion demo` prints.
    package func summary(options: DemoRunner.Options) -> String {
        func ms(_ micros: UInt64) -> String {
            let v = Double(micros) / 1000
            return v < 10 ? "\((v * 100).rounded() / 100) ms" : "\(v.rounded()) ms"
        }
        var lines: [String] = []
        lines.append("Remotion demo: host on \(hostAddress), controller streaming \(options.sourceName) at \(Int(options.rate)) Hz for \(options.duration) s")
        lines.append("  connection  \(connected ? "connected" : "NEVER CONNECTED")")
        lines.append("  security    paired through XXpsk3 (\(pairing)), streamed over Noise IK")
        lines.append("  packets     client sent \(client.datagramsSent), host received \(hostDatagramsReceived) (and \(pairingDatagrams) pairing datagrams before), host dropped \(hostDrops.total)\(hostDrops.total > 0 ? " (\(hostDrops.summary))" : "")")
        lines.append("  motion      \(client.motionSent) samples sent, \(motionDelivered) delivered, \(staleMotion) stale")
        lines.append("  buttons     \(client.buttonEdges) edges sent, \(edgesDelivered) delivered; injected: \(injectedButtons.isEmpty ? "-" : injectedButtons.joined(separator: " "))")
        lines.append("  reliability \(client.retransmissions) retransmissions, \(client.unacknowledgedAtEnd) unacknowledged at the end")
        lines.append("  latency     one-way p50 \(ms(latencyP50Micros)), p99 \(ms(latencyP99Micros)) (from sample timestamps)")
        lines.append("  held        \(heldAfterEnd) inputs still held after the controller left")
        lines.append("  pointer     \(path.count) positions on a \(options.screen.width)x\(options.screen.height) virtual screen (o start, @ end):")
        lines += PathPlot.render(path, screen: options.screen).map { "    " + $0 }
        return lines.joined(separator: "\n")
    }
}

extension DemoRunner.Result {
    /// The summary as one JSON object (`remotion demo --json`), for scripts.
    package func jsonLine() -> String {
        let fields: [(String, String)] = [
            ("connected", connected ? "true" : "false"),
            ("sent", "\(client.motionSent)"),
            ("motion", "\(motionDelivered)"),
            ("stale", "\(staleMotion)"),
            ("edges_sent", "\(client.buttonEdges)"),
            ("edges_delivered", "\(edgesDelivered)"),
            ("client_datagrams", "\(client.datagramsSent)"),
            ("host_received", "\(hostDatagramsReceived)"),
            ("pairing_datagrams", "\(pairingDatagrams)"),
            ("injected", "[" + injectedButtons.map(JSONText.quote).joined(separator: ",") + "]"),
            ("host_dropped", "\(hostDrops.total)"),
            ("p50_us", "\(latencyP50Micros)"),
            ("p99_us", "\(latencyP99Micros)"),
            ("held_after_end", "\(heldAfterEnd)"),
            ("pairing", JSONText.quote(pairing)),
        ]
        return "{" + fields.map { "\(JSONText.quote($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }
}
