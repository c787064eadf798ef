import Foundation
import RemotionNetwork

/// The key directory: --data-dir, else $XDG_DATA_HOME/remotion, else ~/.local/share/remotion.
func dataDirectory(_ explicit: String?, environment: [String: String]) -> URL {
    if let explicit { return URL(fileURLWithPath: explicit) }
    return KeyStore.defaultDirectory(environment: environment)
}

func printInsecureWarning(_ role: String) {
    printErr("""
    ************************************************************************
    remotion \(role): --insecure: PLAIN, UNAUTHENTICATED DATAGRAMS.
    Anyone who can reach this port can inject mouse and keyboard input,
    and anyone on the network can read the motion and buttons.
    Use only for debugging on a trusted network.
    ************************************************************************
    """)
}
