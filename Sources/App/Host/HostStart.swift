import RemotionNetwork

extension HostLoop {
    /// Puts the bound address into the snapshots and publishes the first one, so the
    /// dashboard and the status view show the host, where it listens and its uptime
    /// (counted from here) before any controller connects; from then on a reader that
    /// arrives (`SnapshotPublisher.lease`, `fresh`) gets a snapshot built for it at once.
    package func announceStart() async throws {
        let listen = localAddress.displayText
        let loop = self
        try await onLoop { pipeline, now in
            pipeline.identity.listen = listen
            pipeline.publishNow(now: now)
            // The pipeline removes it when it shuts down (the publisher stops holding the loop).
            pipeline.publisher?.refreshes { await loop.refreshSnapshot() }
        }
    }

    /// Hands this moment's values to the snapshot builder on the loop and waits, off the
    /// loop, until that snapshot is published. Nothing when the host has stopped.
    func refreshSnapshot() async {
        guard let builder = try? await onLoop({ pipeline, now in pipeline.submitSnapshotForReader(now: now) }) else { return }
        await builder.published()
    }
}

extension HostService where Driver == HostDriver {
    /// The same, for code that holds the typed service (the demo, tests).
    package func announceStart() async throws { try await HostLoop(self).announceStart() }
}
