/// Remotion's version: the one place it is written (`remotion --version`, the control
/// socket's `status`, scripts/install.sh reads it from the binary).
package enum RemotionVersion {
    package static let current = "0.1.0"
}
