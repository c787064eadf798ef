/// A property a fuzz target found broken, with the input that broke it. The fuzz
/// executables trap on it (so libFuzzer saves the input); tests report it.
package struct PropertyViolation: Error, CustomStringConvertible, Sendable {
    package let property: String
    package let input: [UInt8]

    package init(_ property: String, input: some Sequence<UInt8>) {
        self.property = property
        self.input = Array(input)
    }

    package var description: String {
        let hex = input.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        return "property violated: \(property); input (\(input.count) bytes): \(hex)"
    }

    /// Traps with the description: what a fuzz target does with a violation.
    package static func trapIfAny(_ violation: PropertyViolation?) {
        if let violation { fatalError(violation.description) }
    }
}
