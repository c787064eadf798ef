// FuzzHandshake (docs/FUZZING.md): handshake datagrams read by each step's reader, cookie
// replies and transport datagrams after a real IK handshake.
import RemotionFuzzChecks

enum HandshakeTarget {
    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        HandshakeProperties.assertHold(Array(bytes))
    }
}
