import Foundation
import Hummingbird
import RemotionHostLogic

/// The dashboard's profile editor (docs/DASHBOARD.md, docs/MOTION.md "Profiles"): the whole
/// `[[profile]]` list in one request.
///
///     PUT /api/profiles  {"profiles": [{"app": "beta", "controller": null,
///                                       "entries": [{"key": "mode", "value": "fps"}, …]}, …]}
///
/// 200 {"profiles": [ProfileSummary, …]}: the profiles now in force, as the file holds them
/// (their lines); 400 {"error": "profile 2 (\"beta\"): sensitivity: …"} for a profile the file's
/// rules refuse or a body that is not that JSON (nothing applied, nothing saved); 409 when the
/// config file cannot take them (one line naming it); 413 over `maxBody`. It passes the same
/// guard as every write (Host, Origin, JSON and this start's token: docs/SECURITY.md §5.3)
/// before it gets here.
struct DashboardProfileRoutes: Sendable {
    let settings: any SettingsControl

    /// The most a profiles request body may hold (the list is bounded too: `ProfileDraft.maxProfiles`).
    static let maxBody = 64 * 1024

    func add(to router: Router<BasicRequestContext>) {
        router.put("/api/profiles") { request, _ in
            var request = request
            guard let body = try? await request.collectBody(upTo: Self.maxBody) else {
                return DashboardRoutes.json(.contentTooLarge, DashboardJSON.encode(["error": "the request body is over \(Self.maxBody) bytes"]))
            }
            return await self.replace(Data(body.readableBytesView))
        }
    }

    func replace(_ data: Data) async -> Response {
        guard let request = try? JSONDecoder().decode(ProfilesRequest.self, from: data) else {
            return DashboardRoutes.json(.badRequest, DashboardJSON.encode(["error":
                "expected a JSON object {\"profiles\": [{\"app\": \"...\", \"controller\": null, \"entries\": [{\"key\": \"mode\", \"value\": \"fps\"}]}]}"]))
        }
        do {
            let inForce = try await settings.setProfiles(request.profiles)
            return DashboardRoutes.json(.ok, DashboardJSON.encode(ProfilesAnswer(profiles: inForce.list.map(ProfileSummary.init))))
        } catch let error as ProfileEditError {
            return DashboardRoutes.json(.badRequest, DashboardJSON.encode(["error": error.message]))
        } catch let error as ConfigError {
            return DashboardRoutes.json(.conflict, DashboardJSON.encode(["error": error.description]))
        } catch {
            return DashboardRoutes.json(.internalServerError, DashboardJSON.encode(["error": "could not save the profiles: \(error)"]))
        }
    }
}

/// PUT /api/profiles's body: the whole list, in order.
package struct ProfilesRequest: Codable, Sendable, Equatable {
    package var profiles: [ProfileDraft]
    package init(profiles: [ProfileDraft]) { self.profiles = profiles }
}

/// Its answer: the profiles now in force.
package struct ProfilesAnswer: Codable, Sendable, Equatable {
    package var profiles: [ProfileSummary]
}
