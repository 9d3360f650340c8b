/// What one digit cell of a field shows.
public struct DisplayCell: Sendable, Hashable {
    public enum Separator: Sendable, Hashable {
        /// A clock's colon after this cell.
        case colon
        /// A date's dash after this cell (05-17).
        case dash
    }

    /// A character of `SevenSegmentFont`; a space is a blank cell.
    public var character: Character
    /// The decimal point after this cell is lit.
    public var pointAfter: Bool
    public var separatorAfter: Separator?

    public init(_ character: Character, pointAfter: Bool = false, separatorAfter: Separator? = nil) {
        self.character = character
        self.pointAfter = pointAfter
        self.separatorAfter = separatorAfter
    }
}

/// Lays a field's text into its fixed number of cells, the way meters do it.
public enum FieldCells {
    /// Right-aligns `text` in `cellCount` cells: leading cells stay blank (a meter shows ` 98`, never `098`).
    ///
    /// - `.` lights the decimal point after the previous character (`5.6` in 3 cells: blank, 5 with its
    ///   point, 6);
    /// - `:` lights a colon after the previous character (`12:34`);
    /// - `-` directly after a digit is a date separator (`05-17`); anywhere else it is a minus sign that takes
    ///   a cell of its own.
    ///
    /// Returns nil when the text needs more cells than the field has or holds a character the cells cannot
    /// show.
    public static func layout(_ text: String, cellCount: Int, letterI: LetterIStyle = .likeOne) -> [DisplayCell]? {
        var cells: [DisplayCell] = []
        for ch in text {
            switch ch {
            case ".":
                guard !cells.isEmpty, !cells[cells.count - 1].pointAfter else { return nil }
                cells[cells.count - 1].pointAfter = true
            case ":":
                guard !cells.isEmpty else { return nil }
                cells[cells.count - 1].separatorAfter = .colon
            case "-" where cells.last.map({ $0.character.isNumber }) ?? false:
                cells[cells.count - 1].separatorAfter = .dash
            default:
                guard SevenSegmentFont.segments(for: ch, letterI: letterI) != nil else { return nil }
                cells.append(DisplayCell(ch))
            }
        }
        guard cells.count <= cellCount else { return nil }
        return Array(repeating: DisplayCell(" "), count: cellCount - cells.count) + cells
    }
}
