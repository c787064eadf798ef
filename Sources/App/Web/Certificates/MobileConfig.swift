import RemotionHostLogic
import Crypto
import Foundation

/// The local CA as an iOS/iPadOS configuration profile (served at /ca.mobileconfig with
/// Content-Type application/x-apple-aspen-config).
///
/// One com.apple.security.root payload carrying the CA's DER. Identifiers are stable:
/// the profile's PayloadIdentifier depends only on the host name, so downloading a profile
/// for a new CA replaces the old one, and the PayloadUUIDs are derived from the CA's
/// SHA-256, so downloading the same CA again replaces rather than duplicates it.
/// The profile is unsigned (iOS shows it as "Not Verified"); after installing it the user
/// must still enable full trust in Settings › General › About › Certificate Trust Settings.
extension LocalCertificateAuthority {
    /// The CA as an iOS configuration profile (see `MobileConfig`).
    package static func mobileconfig(caDER: [UInt8], hostname: String) -> String {
        MobileConfig.mobileconfig(caDER: caDER, hostname: hostname)
    }
}

package enum MobileConfig {
    package static let contentType = "application/x-apple-aspen-config"

    package static func mobileconfig(caDER: [UInt8], hostname: String) -> String {
        let digest = Array(SHA256.hash(data: caDER))
        let profileUUID = uuid(digest, label: "profile")
        let payloadUUID = uuid(digest, label: "root")
        let host = LocalCertificateAuthority.localName(for: hostname).dropLast(".local".count)
        let identifier = "local.remotion.web-ca.\(host)"
        let name = escape("Remotion local CA (\(hostname))")
        let base64 = wrapped(Data(caDER).base64EncodedString())
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>PayloadContent</key>
        \t<array>
        \t\t<dict>
        \t\t\t<key>PayloadCertificateFileName</key>
        \t\t\t<string>remotion-ca.cer</string>
        \t\t\t<key>PayloadContent</key>
        \t\t\t<data>
        \(base64)
        \t\t\t</data>
        \t\t\t<key>PayloadDescription</key>
        \t\t\t<string>Lets this device trust the Remotion controller page served by \(escape(hostname)). Name constraints limit it to .local names, localhost and private, loopback and link-local addresses.</string>
        \t\t\t<key>PayloadDisplayName</key>
        \t\t\t<string>\(name)</string>
        \t\t\t<key>PayloadIdentifier</key>
        \t\t\t<string>\(identifier).root</string>
        \t\t\t<key>PayloadType</key>
        \t\t\t<string>com.apple.security.root</string>
        \t\t\t<key>PayloadUUID</key>
        \t\t\t<string>\(payloadUUID)</string>
        \t\t\t<key>PayloadVersion</key>
        \t\t\t<integer>1</integer>
        \t\t</dict>
        \t</array>
        \t<key>PayloadDescription</key>
        \t<string>Installs the certificate authority of the Remotion host \(escape(hostname)). Its name constraints let it vouch only for .local names, localhost and private, loopback and link-local addresses, never for a public site; anyone holding its key (the host's user) can still vouch for other devices on a local network. Before trusting it, check that its SHA-256 under More Details matches the one the host prints.</string>
        \t<key>PayloadDisplayName</key>
        \t<string>\(name)</string>
        \t<key>PayloadIdentifier</key>
        \t<string>\(identifier)</string>
        \t<key>PayloadRemovalDisallowed</key>
        \t<false/>
        \t<key>PayloadType</key>
        \t<string>Configuration</string>
        \t<key>PayloadUUID</key>
        \t<string>\(profileUUID)</string>
        \t<key>PayloadVersion</key>
        \t<integer>1</integer>
        </dict>
        </plist>

        """
    }

    /// A name-based UUID (RFC 9562 version 8, SHA-256 based) of the CA digest and a label.
    static func uuid(_ digest: [UInt8], label: String) -> String {
        var b = Array(SHA256.hash(data: Array("remotion mobileconfig \(label)".utf8) + digest).prefix(16))
        b[6] = (b[6] & 0x0F) | 0x80   // version 8
        b[8] = (b[8] & 0x3F) | 0x80   // RFC 4122 variant
        let hex = b.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
        let c = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(c[$0]) }.joined(separator: "-")
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for ch in text {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: if !(ch.unicodeScalars.first.map { $0.value < 0x20 } ?? false) { out.append(ch) }
            }
        }
        return out
    }

    /// Lines of 52 characters indented with three tabs, as Apple's tools write <data>.
    static func wrapped(_ text: String) -> String {
        let chars = Array(text)
        return stride(from: 0, to: chars.count, by: 52)
            .map { "\t\t\t" + String(chars[$0..<min($0 + 52, chars.count)]) }
            .joined(separator: "\n")
    }
}
