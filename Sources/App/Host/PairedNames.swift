import Foundation
import RemotionNetwork
import RemotionProtocol

/// The names controllers paired under (`paired.json`), looked up by a session's remote
/// static key, so the host shows "phone" rather than only an address.
package struct PairedNames: Sendable {
    let store: KeyStore

    package init(store: KeyStore) { self.store = store }

    /// The paired name of `key`; nil when it is not paired (or the file cannot be read).
    package func name(for key: [UInt8]) -> String? {
        let encoded = Base32.encode(key)
        return (try? store.pairedControllers())?.first { $0.publicKey == encoded }?.name
    }
}
