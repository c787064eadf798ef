import RemotionApp
import Foundation
import RemotionNetwork

/// The key directory: --data-dir, else $XDG_DATA_HOME/remotion, else ~/.local/share/remotion.
func dataDirectory(_ explicit: String?, environment: [String: String]) -> URL {
    if let explicit { return URL(fileURLWithPath: explicit) }
    return KeyStore.defaultDirectory(environment: environment)
}

func printInsecureWarning(_ role: String) {
    printErr(InsecureWarning.text(role: role))
}
