/// Whether a display shows dark segments on a light background (reflective LCD) or light on dark (backlit, LED).
public enum DisplayPolarity: String, Codable, Sendable, Hashable {
    case darkOnLight
    case lightOnDark
    case either

    /// Whether ink of `polarity` can be this display's segments.
    public func admits(_ polarity: InkPolarity) -> Bool {
        switch self {
        case .either: true
        case .darkOnLight: polarity == .dark
        case .lightOnDark: polarity == .light
        }
    }
}
