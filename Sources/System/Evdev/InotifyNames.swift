#if os(Linux)
/// The names in a buffer of inotify events (struct inotify_event: wd, mask, cookie, len, then
/// `len` bytes of NUL-padded name), so the local-pads reader re-reads only the nodes that
/// changed. Pure: bytes in, names out. Nil when the buffer says "look at everything": the
/// kernel's queue overflowed (IN_Q_OVERFLOW), a watched directory itself went or changed
/// (no name), or the bytes are not whole events.
enum InotifyNames {
    static let queueOverflow: UInt32 = 0x4000

    static func parse(_ bytes: UnsafeRawBufferPointer) -> Set<String>? {
        var names: Set<String> = []
        var at = 0
        let header = 16
        while at < bytes.count {
            guard bytes.count - at >= header else { return nil }
            let mask = bytes.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self)
            let length = Int(bytes.loadUnaligned(fromByteOffset: at + 12, as: UInt32.self))
            guard length <= bytes.count - at - header else { return nil }
            if mask & queueOverflow != 0 || length == 0 { return nil }
            let name = bytes[(at + header)..<(at + header + length)].prefix { $0 != 0 }
            names.insert(String(decoding: name, as: UTF8.self))
            at += header + length
        }
        return names
    }
}
#endif
