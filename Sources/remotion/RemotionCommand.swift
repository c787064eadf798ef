import ArgumentParser
import Foundation

@main
struct RemotionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remotion",
        abstract: "A phone (or any gyroscope) as a wireless motion controller for your desktop.",
        subcommands: [HostCommand.self, ClientCommand.self, HostsCommand.self, PairCommand.self, DevicesCommand.self, DemoCommand.self])

    /// Bad flags get one line saying what to fix (and the exit code says usage error);
    /// `--help` still prints the full help.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var async = command as? AsyncParsableCommand {
                try await async.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .success || error is CleanExit {
                exit(withError: error)
            }
            let message = self.message(for: error)
            let firstLine = message.split(separator: "\n").first.map(String.init) ?? message
            printErr("remotion: \(firstLine.replacingOccurrences(of: "Error: ", with: ""))")
            Foundation.exit(code.rawValue)
        }
    }
}

/// An error the commands raise for the user: printed as one line.
struct UserError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
