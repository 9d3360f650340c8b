/// A 5 x 7 dot-matrix font: the digits, signs and letters of the recognizer's alphabet as colour screens and
/// LED matrix panels draw them, one dot per lit cell of the grid.
enum DotMatrixFont {
    /// Rows top to bottom, `#` lit; narrow characters (`.`, `:`) have one column.
    static func rows(_ c: Character) -> [String]? {
        switch c {
        case "0": [" ### ", "#   #", "#  ##", "# # #", "##  #", "#   #", " ### "]
        case "1": ["  #  ", " ##  ", "  #  ", "  #  ", "  #  ", "  #  ", " ### "]
        case "2": [" ### ", "#   #", "    #", "   # ", "  #  ", " #   ", "#####"]
        case "3": ["#####", "   # ", "  #  ", "   # ", "    #", "#   #", " ### "]
        case "4": ["   # ", "  ## ", " # # ", "#  # ", "#####", "   # ", "   # "]
        case "5": ["#####", "#    ", "#### ", "    #", "    #", "#   #", " ### "]
        case "6": ["  ## ", " #   ", "#    ", "#### ", "#   #", "#   #", " ### "]
        case "7": ["#####", "    #", "   # ", "  #  ", " #   ", " #   ", " #   "]
        case "8": [" ### ", "#   #", "#   #", " ### ", "#   #", "#   #", " ### "]
        case "9": [" ### ", "#   #", "#   #", " ####", "    #", "   # ", " ##  "]
        case "-": ["     ", "     ", "     ", "#####", "     ", "     ", "     "]
        case "L": ["#    ", "#    ", "#    ", "#    ", "#    ", "#    ", "#####"]
        case "O": [" ### ", "#   #", "#   #", "#   #", "#   #", "#   #", " ### "]
        case "H": ["#   #", "#   #", "#   #", "#####", "#   #", "#   #", "#   #"]
        case "I": [" ### ", "  #  ", "  #  ", "  #  ", "  #  ", "  #  ", " ### "]
        case "E": ["#####", "#    ", "#    ", "#### ", "#    ", "#    ", "#####"]
        case "r": ["     ", "     ", "# ## ", "##  #", "#    ", "#    ", "#    "]
        case "o": ["     ", "     ", " ### ", "#   #", "#   #", "#   #", " ### "]
        case ".": [" ", " ", " ", " ", " ", " ", "#"]
        case ":": [" ", " ", "#", " ", "#", " ", " "]
        default: nil
        }
    }

    /// Columns a character takes (5, or 1 for `.` and `:`).
    static func columns(_ c: Character) -> Int { c == "." || c == ":" ? 1 : 5 }
}
