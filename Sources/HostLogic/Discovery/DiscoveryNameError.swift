/// Why a service type or instance name was refused; each message says what to change.
package enum DiscoveryNameError: Error, Hashable, Sendable, CustomStringConvertible {
    case emptyServiceName
    case serviceNameTooLong(String, length: Int)
    case serviceNameCharacter(String, character: Character)
    case serviceNameWithoutLetter(String)
    case serviceNameHyphenAtEnd(String)
    case serviceNameDoubleHyphen(String)
    case malformedServiceType(String, hint: String)
    case badTransport(String)
    case emptyInstanceName
    case instanceNameTooLong(String, bytes: Int)
    case instanceNameControlCharacter(String, scalar: UInt32)

    package var description: String {
        switch self {
        case .emptyServiceName:
            return "service name is empty: use 1-15 letters, digits or hyphens, e.g. remotion"
        case let .serviceNameTooLong(name, length):
            return "service name '\(name)' has \(length) characters: shorten it to at most 15 (RFC 6335)"
        case let .serviceNameCharacter(name, character):
            return "service name '\(name)' contains '\(character)': use only letters a-z, digits and hyphens"
        case let .serviceNameWithoutLetter(name):
            return "service name '\(name)' has no letter: include at least one letter a-z"
        case let .serviceNameHyphenAtEnd(name):
            return "service name '\(name)' starts or ends with a hyphen: remove it"
        case let .serviceNameDoubleHyphen(name):
            return "service name '\(name)' contains '--': use single hyphens"
        case let .malformedServiceType(text, hint):
            return "service type '\(text)' is malformed: \(hint)"
        case let .badTransport(label):
            return "service protocol '\(label)' is not allowed: use _udp or _tcp"
        case .emptyInstanceName:
            return "instance name is empty: give 1-63 bytes of UTF-8 text, e.g. 'Remotion on desk'"
        case let .instanceNameTooLong(name, bytes):
            return "instance name '\(name)' is \(bytes) bytes of UTF-8: shorten it to at most 63 bytes"
        case let .instanceNameControlCharacter(name, scalar):
            let hex = String(scalar, radix: 16, uppercase: true)
            return "instance name '\(name.debugDescription)' contains control character U+\(hex): remove it"
        }
    }
}
