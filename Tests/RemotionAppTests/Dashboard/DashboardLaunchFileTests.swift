import Foundation
import RemotionApp
import RemotionNetwork
import RemotionTestSupport
import Testing

/// `remotion dashboard` put the tokened address on xdg-open's command line,
/// which every local user can read in /proc/PID/cmdline. Now the browser is handed a 0600
/// page in a 0700 directory under XDG_RUNTIME_DIR, by file URL (`DashboardLaunchFile`);
/// scripts/cli-e2e.sh checks the real command with a recording xdg-open.
@Suite struct DashboardLaunchFileTests {
    static let url = "http://127.0.0.1:7475/#token=AbC-_123xyz"

    @Test func theBrowsersCommandLineCarriesAFileNotTheToken() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let runtime = dir.url.path
        let directory = try #require(DashboardLaunchFile.directory(environment: ["XDG_RUNTIME_DIR": runtime]))
        #expect(directory == runtime + "/remotion")
        let page = try DashboardLaunchFile.write(url: Self.url, directory: directory)
        let arguments = DashboardLaunchFile.openerArguments(page: page)
        #expect(arguments.allSatisfy { !$0.contains("token") && !$0.contains("AbC-_123xyz") })
        #expect(arguments == ["xdg-open", "file://" + page])
        #expect(PrivateFiles.mode(of: page) == 0o600 && PrivateFiles.mode(of: directory) == 0o700)
        let text = try String(contentsOfFile: page, encoding: .utf8)
        #expect(text.contains("location.replace(\"\(Self.url)\")") && text.contains("url=\(Self.url)\""))
    }

    @Test func noRuntimeDirectoryNoPageAndOddAddressesAreRefused() {
        #expect(DashboardLaunchFile.directory(environment: [:]) == nil)
        #expect(DashboardLaunchFile.directory(environment: ["XDG_RUNTIME_DIR": "relative/dir"]) == nil)
        #expect(throws: DashboardLaunchFile.Failure.unexpectedAddress) { try DashboardLaunchFile.html(url: "http://x/\"><script>") }
        #expect(throws: DashboardLaunchFile.Failure.unexpectedAddress) { try DashboardLaunchFile.html(url: "javascript:alert(1)") }
    }

    @Test func pagesAreRemovedOnceReadOrByTheNextRun() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let directory = dir.url.path + "/remotion"
        let old = try DashboardLaunchFile.write(url: Self.url, directory: directory)
        let fresh = try DashboardLaunchFile.write(url: Self.url, directory: directory)
        _ = FileManager.default.createFile(atPath: directory + "/other.html", contents: Data())
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-60)], ofItemAtPath: old)
        #expect(DashboardLaunchFile.removeStale(directory: directory, now: Date()) == [old])
        #expect(FileManager.default.fileExists(atPath: fresh) && FileManager.default.fileExists(atPath: directory + "/other.html"))
        DashboardLaunchFile.removeOnceRead(fresh, readWait: 0.3)
        #expect(!FileManager.default.fileExists(atPath: fresh), "removed at the latest after readWait")
    }
}
