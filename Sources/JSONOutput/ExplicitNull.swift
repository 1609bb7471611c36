/// An optional property that JSON output always carries: `"location": null` rather than a missing key,
/// so a consumer of gymcard's `--json` finds every field of the schema in every object.
///
/// Swift's synthesized `Encodable` leaves a `nil` optional out (`encodeIfPresent`); wrapping the
/// property makes the synthesized code encode the wrapper, which writes the value or an explicit null.
@propertyWrapper
public struct ExplicitNull<Value: Encodable & Sendable>: Encodable, Sendable {
    /// The value, or `nil` for `null`.
    public var wrappedValue: Value?

    /// Wraps a value.
    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    /// Writes the value, or `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}
