import Foundation
import NIOCore

/// One clear line for a socket that could not be bound, instead of NIO's error text.
package enum BusyPort {
    package static func isAddressInUse(_ error: any Error) -> Bool {
        (error as? IOError)?.errnoCode == EADDRINUSE
    }

    /// "UDP port 7474 is in use: a Remotion host already runs there (pid 123, …)" when the
    /// host of this data directory answers on its control socket and owns that port;
    /// otherwise what the port is and what to do.
    package static func message(for error: any Error, bind: String, port: Int, dataDirectory: URL) async -> String {
        guard isAddressInUse(error) else {
            return "cannot listen on \(bind) UDP port \(port): \(describe(error))"
        }
        if let status = await hostStatus(dataDirectory: dataDirectory), status.number("port") == Double(port) {
            let pid = status.number("pid").map { "pid \(Int($0)), " } ?? ""
            return "UDP port \(port) is in use: a Remotion host already runs there (\(pid)data directory \(dataDirectory.path)); stop it, or pick another port with --port"
        }
        return "UDP port \(port) is in use by another program (or a Remotion host with another --data-dir); pick another port with --port"
    }

    /// The running host's answer to `status` on this data directory's control socket.
    package static func hostStatus(dataDirectory: URL) async -> ControlResponse? {
        let path = ControlServer.path(dataDirectory: dataDirectory)
        guard let client = try? await ControlClient.connect(path: path) else { return nil }
        let answer = try? await client.send(ControlRequest("status"))
        await client.close()
        return answer?.ok == true ? answer : nil
    }

    /// An error as a short sentence: the system's text for errno errors, no NIO internals.
    package static func describe(_ error: any Error) -> String {
        if let io = error as? IOError { return String(cString: strerror(io.errnoCode)).lowercased() }
        return "\(error)"
    }
}
