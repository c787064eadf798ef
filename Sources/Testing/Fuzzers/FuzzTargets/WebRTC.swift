// FuzzWebRTC, the web controller's data-channel surface (docs/FUZZING.md):
// the signalling request (`WebRTCOffer.parse`, the JSON + SDP checks before anything
// reaches GStreamer) and the data-channel messages (`WebFrame.decode`, `WebClientMessage`).
// Properties: nothing traps; an accepted offer has a 32-byte fingerprint and at most
// `maxBody` bytes of SDP; an accepted frame has a known type and a button index ≤ 15.
import RemotionHostLogic

enum WebRTCTarget {
    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        let size = bytes.count
        if case .success(let offer) = WebRTCOffer.parse(bytes) {
            precondition(offer.fingerprint.count == 32 && offer.sdp.utf8.count <= WebRTCOffer.maxBody)
        }
        if let frame = try? WebFrame.decode(bytes) {
            switch frame {
            case .motion(let m): precondition(size == (m.analog == nil ? 52 : 64))
            case .button(let b, _, _): precondition(b.rawValue <= 15 && size == 8)
            case .ping: precondition(size == 16)
            }
        }
        _ = WebClientMessage.parse(String(decoding: bytes, as: UTF8.self))
    }
}
