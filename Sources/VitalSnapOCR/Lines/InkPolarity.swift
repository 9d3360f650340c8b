/// Whether the ink of a display is darker than its background (reflective LCD) or lighter (backlit, LED).
public enum InkPolarity: String, Sendable, Hashable, Codable {
    case dark
    case light
}
