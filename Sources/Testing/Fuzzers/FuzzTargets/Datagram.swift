// FuzzDatagram (docs/FUZZING.md): the v1 datagram codec, RemotionWire only, no crypto.
import RemotionFuzzChecks

enum DatagramTarget {
    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        DatagramProperties.assertHold(UnsafeRawBufferPointer(bytes))
    }
}
