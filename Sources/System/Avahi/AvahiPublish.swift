#if os(Linux)
import CAvahi
import RemotionHostLogic

struct PublishRecord {
    var name: String
    let type: ServiceType
    let port: UInt16
    let txt: [String]
    let token: Token
    var group: OpaquePointer?
    /// The group exists but its service must be (re-)added and committed.
    var needsAdd = true
    /// The caller of `publish` waiting for ESTABLISHED (resumed once).
    var waiter: CheckedContinuation<String, any Error>?
}

extension AvahiLoop {
    static let maxRenames = 100

    func publish(name: InstanceName, type: ServiceType, port: UInt16, txt: TXTRecord) async throws -> PublishedService {
        let id = locked { makeID() }
        let finalName = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<String, any Error>) in
                locked {
                    guard clientRunning, !Task.isCancelled else {
                        waiter.resume(throwing: Task.isCancelled ? CancellationError() : unavailableError)
                        return
                    }
                    publications[id] = PublishRecord(name: name.value, type: type, port: port, txt: txt.strings,
                                                     token: Token(loop: self, kind: .group(publication: id)),
                                                     waiter: waiter)
                    startGroup(id)
                }
            }
        } onCancel: {
            locked { failPublication(id, CancellationError()) }
        }
        return PublishedService(id: id, name: finalName, type: type, port: port)
    }

    func unpublish(_ id: Int) {
        locked {
            guard let record = publications.removeValue(forKey: id) else { return }
            if let group = record.group { avahi_entry_group_free(group) }
            record.waiter?.resume(throwing: DiscoveryError.publishFailed("unpublished before it was announced"))
        }
    }

    /// Current name of a publication (changes when a later conflict renames it).
    func currentName(_ id: Int) -> String? { locked { publications[id]?.name } }

    /// Poll thread or locked: creates the entry group if needed, adds the service, commits.
    func startGroup(_ id: Int) {
        guard let client, clientRunning, let record = publications[id] else { return }
        var group = record.group
        if group == nil {
            // Calls groupChanged synchronously (UNCOMMITED), which touches no state.
            group = avahi_entry_group_new(client, { g, state, userdata in
                guard let g, let userdata else { return }
                let token = Token.from(userdata)
                guard case let .group(id) = token.kind else { return }
                token.loop.groupChanged(id, group: g, state: state)
            }, record.token.pointer)
            guard let group else {
                failPublication(id, DiscoveryError.publishFailed(avahiErrorText(avahi_client_errno(client))))
                return
            }
            publications[id]?.group = group
            publications[id]?.needsAdd = true
        }
        guard let group, publications[id]?.needsAdd == true else { return }
        addAndCommit(id, group: group)
    }

    /// Adds the service under the record's name, renaming on local collisions, then commits.
    private func addAndCommit(_ id: Int, group: OpaquePointer) {
        guard var record = publications[id] else { return }
        let list = makeStringList(record.txt)
        defer { avahi_string_list_free(list) }
        var result: Int32 = 0
        for _ in 0..<Self.maxRenames {
            result = avahi_entry_group_add_service_strlst(
                group, ifUNSPEC, protoUNSPEC, AvahiPublishFlags(0),
                record.name, record.type.description, nil, nil, record.port, list)
            guard result == Int32(AVAHI_ERR_COLLISION) else { break }
            record.name = alternativeName(record.name)
        }
        if result >= 0 { result = avahi_entry_group_commit(group) }
        publications[id]?.name = record.name
        publications[id]?.needsAdd = false
        if result < 0 {
            failPublication(id, DiscoveryError.publishFailed(avahiErrorText(result)))
        }
    }

    private func groupChanged(_ id: Int, group: OpaquePointer, state: AvahiEntryGroupState) {
        guard let record = publications[id] else { return }
        switch state {
        case AVAHI_ENTRY_GROUP_ESTABLISHED:
            publications[id]?.waiter = nil
            record.waiter?.resume(returning: record.name)
        case AVAHI_ENTRY_GROUP_COLLISION:
            // Someone on the network has this name: the daemon withdrew it; pick the next one.
            publications[id]?.name = alternativeName(record.name)
            addAndCommit(id, group: group)
        case AVAHI_ENTRY_GROUP_FAILURE:
            let error = client.map { avahiErrorText(avahi_client_errno($0)) } ?? "daemon gone"
            failPublication(id, DiscoveryError.publishFailed(error))
        default:
            break // UNCOMMITED, REGISTERING
        }
    }

    /// Poll thread (daemon gone): the group is freed. Established services stay
    /// registered here and are re-published on S_RUNNING; a publish still waiting fails.
    func publicationLost(_ id: Int) {
        guard let record = publications[id] else { return }
        if let group = record.group { avahi_entry_group_free(group) }
        publications[id]?.group = nil
        publications[id]?.needsAdd = true
        if let waiter = record.waiter {
            publications[id] = nil
            waiter.resume(throwing: unavailableError)
        }
    }

    /// Drops a publication that never got established and fails its waiter.
    private func failPublication(_ id: Int, _ error: any Error) {
        guard let record = publications[id], let waiter = record.waiter else { return }
        publications[id] = nil
        if let group = record.group { avahi_entry_group_free(group) }
        waiter.resume(throwing: error)
    }

    private func alternativeName(_ name: String) -> String {
        guard let next = avahi_alternative_service_name(name) else { return name + " #2" }
        defer { avahi_free(next) }
        return String(cString: next)
    }
}
#endif
