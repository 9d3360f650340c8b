/// The secret a view's URL holds: every request to the view must carry it.
public struct ViewToken: Sendable, Hashable, CustomStringConvertible {
    public let value: String

    /// 128 random bits from the system's cryptographic generator, as 32 hex digits.
    public init() {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        value = String((0..<32).map { _ in digits[Int(generator.next() % 16)] })
    }

    public init(_ value: String) { self.value = value }

    public var description: String { value }
}
