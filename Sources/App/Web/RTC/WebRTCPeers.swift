#if canImport(CWebRTCPeer)
import CWebRTCPeer
import Dispatch
import Synchronization

/// The host's WebRTC peers (docs/WEB-CONTROLLER.md, "Transports"): one GStreamer webrtcbin
/// per phone that signalled, at most `limit` at once, each on a UDP port in `ports`.
/// GStreamer calls back on its own threads with a token; this maps tokens to sessions.
/// A newer offer from the same device replaces its older peer (a phone reconnecting).
package final class WebRTCPeers: Sendable {
    package let configuration: WebRTCConfiguration
    /// This server's sessions; `all` maps every token of the process (GStreamer's
    /// callbacks carry only the token).
    private let sessions = Mutex<[UInt64: WebRTCSession]>([:])
    private static let all = Mutex<[UInt64: WebRTCSession]>([:])
    private static let nextToken = Atomic<UInt64>(1)

    /// Starts GStreamer; throws the one line a user reads when webrtcbin is missing.
    package init(_ configuration: WebRTCConfiguration) throws(WebServerError) {
        self.configuration = configuration
        var error: UnsafeMutablePointer<CChar>?
        if remotion_webrtc_init(webRTCMessage, webRTCEvent, &error) != 0 {
            let text = error.map { String(cString: $0) } ?? "GStreamer cannot start"
            remotion_webrtc_free(error)
            throw WebServerError(text)
        }
    }

    var count: Int { sessions.withLock { $0.count } }

    fileprivate static func session(_ token: UInt64) -> WebRTCSession? {
        all.withLock { $0[token] }
    }

    enum AnswerFailure: Error { case full, failed(String) }

    /// Answers an offer for `session` off the caller's thread (webrtcbin blocks while it
    /// gathers); on success the session is registered and owns the peer.
    func answer(_ offer: String, fingerprint: [UInt8], for session: WebRTCSession) async -> Result<String, AnswerFailure> {
        // Replace the device's older peers and take a slot in one critical section: two
        // offers at once cannot both see room, nor both keep their device's old peers.
        let token = Self.nextToken.add(1, ordering: .relaxed).oldValue
        let (replaced, admitted): ([WebRTCSession], Bool) = sessions.withLock { s in
            let same = s.filter { $0.value.device.id == session.device.id }
            for key in same.keys { s.removeValue(forKey: key) }
            guard s.count < configuration.limit else { return (Array(same.values), false) }
            s[token] = session
            return (Array(same.values), true)
        }
        for old in replaced { old.end(.replaced) }
        if admitted { Self.all.withLock { $0[token] = session } }
        guard admitted else { return .failure(.full) }
        let c = configuration
        let result: Result<(WebRTCSession.Peer, String), AnswerFailure> = await withCheckedContinuation { done in
            DispatchQueue.global().async {
                var answer: UnsafeMutablePointer<CChar>?
                var error: UnsafeMutablePointer<CChar>?
                let address = c.address.flatMap { ["0.0.0.0", "::", ""].contains($0) ? nil : $0 }
                let peer = fingerprint.withUnsafeBufferPointer { fp in
                    remotion_webrtc_answer(token, offer, fp.baseAddress, UInt32(c.ports.lowerBound), UInt32(c.ports.upperBound),
                                           address, UInt32(c.answerTimeout.components.seconds * 1000), &answer, &error)
                }
                defer { remotion_webrtc_free(answer); remotion_webrtc_free(error) }
                guard let peer, let answer else {
                    done.resume(returning: .failure(.failed(error.map { String(cString: $0) } ?? "no answer")))
                    return
                }
                done.resume(returning: .success((WebRTCSession.Peer(peer), String(cString: answer))))
            }
        }
        switch result {
        case .success(let (peer, sdp)):
            session.attach(peer, token: token) { [weak self] in self?.forget(token) }
            return .success(sdp)
        case .failure(let why):
            forget(token)
            return .failure(why)
        }
    }

    private func forget(_ token: UInt64) {
        _ = sessions.withLock { $0.removeValue(forKey: token) }
        _ = Self.all.withLock { $0.removeValue(forKey: token) }
    }

    /// Ends every session (the server stops).
    package func shutdown() {
        let all = sessions.withLock { Array($0.values) }
        for s in all { s.end(.shutdown) }
    }
}

// GStreamer's threads call these (C function pointers: no captures).
private let webRTCMessage: remotion_webrtc_message_fn = { token, channel, isText, data, length in
    guard let session = WebRTCPeers.session(token) else { return }
    let bytes = UnsafeBufferPointer(start: data, count: length)
    session.received(channel: channel == 1 ? .motion : .control, isText: isText != 0, bytes)
}

private let webRTCEvent: remotion_webrtc_event_fn = { token, event, channel in
    guard let session = WebRTCPeers.session(token) else { return }
    session.event(event, channel: channel)
}
#endif
