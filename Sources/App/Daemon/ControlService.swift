import Foundation
import ServiceLifecycle

/// Serves the host's control socket (`control.sock` in the data directory) while the
/// host runs: `status` always, the pairing commands on a secure host.
package struct ControlService: Service {
    package let server: ControlServer

    /// Starts the socket; nil (and one line saying why) when it cannot, the host runs on.
    package static func start(dataDirectory: URL, commands: ControlCommands,
                      note: (String) -> Void) async -> ControlService? {
        let path = ControlServer.path(dataDirectory: dataDirectory)
        let server = ControlServer(path: path, handlers: commands.byName)
        do {
            try await server.start()
        } catch let error as ControlSocketError {
            note("control socket off (\(error)); `remotion pair --listen` talks to that host")
            return nil
        } catch {
            note("control socket off (cannot serve \(path): \(BusyPort.describe(error)))")
            return nil
        }
        return ControlService(server: server)
    }

    package func run() async throws {
        try? await gracefulShutdown()
        await server.shutdown()
    }
}

extension ControlService {
    /// What `status` answers: who the host is and where it listens.
    package static func status(name: String, port: Int, secure: Bool) -> [String: ControlValue] {
        ["pid": .number(Double(getpid())), "port": .number(Double(port)), "name": .string(name),
         "secure": .bool(secure), "version": .string(RemotionVersion.current)]
    }

}
