/// The spellings people type for a unit reduced to one form, so that parsing compares like with like:
/// lowercased, without spaces or periods, with the look-alike degree signs folded into `°`.
enum UnitText {
    static func normalized(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case " ", "\t", "\u{00A0}", ".": continue
            // The masculine ordinal `º` and ring `˚` are typed for the degree sign on many keyboards.
            case "\u{00BA}", "\u{02DA}": out += "°"
            // The single-character units ℃ and ℉.
            case "\u{2103}": out += "°c"
            case "\u{2109}": out += "°f"
            default: out += String(scalar).lowercased()
            }
        }
        return out
    }
}
