import Foundation

/// The display's reading direction, from its lines' own: the order its fields are read in, and whether its
/// value lines read along one direction at all (`ReadingAssembler.Configuration.directionSpread`).
extension ReadingAssembler {
    /// Whether no two of `lines` read along directions more than `spread` apart (lines not placed count as
    /// agreeing).
    static func readInOneDirection(_ lines: [RecognizedLine], spread: Double) -> Bool {
        let least = cos(spread)
        for i in lines.indices {
            guard let a = lines[i].corners?.direction else { continue }
            for j in lines.indices where j > i {
                guard let b = lines[j].corners?.direction else { continue }
                if a.x * b.x + a.y * b.y < least { return false }
            }
        }
        return true
    }

    /// Sorts the lines top to bottom, then left to right, in the display's own frame: the one their reading
    /// direction gives. A trained locator reads a display upside down or turned by a quarter without turning the image, so
    /// "top" is where the characters' tops point, not the image's top (for an upright display the two agree).
    /// `turnedBy` (radians) turns the direction the lines are ordered along, but not the one that tells which
    /// of them share a row: whether the order depends on that direction.
    static func sortInReadingOrder(
        _ lines: inout [RecognizedLine], sameRowOverlap: Double = Configuration().sameRowOverlap, turnedBy turn: Double = 0
    ) {
        // The display's reading direction: the mean of its lines' (their quads' `direction`).
        var ex: Double = 0, ey: Double = 0
        for line in lines {
            guard let e = line.corners?.direction else { continue }
            ex += e.x
            ey += e.y
        }
        let n = (ex * ex + ey * ey).squareRoot()
        (ex, ey) = n > 0 ? (ex / n, ey / n) : (1, 0)
        let (tx, ty) = turn == 0 ? (ex, ey) : (ex * cos(turn) - ey * sin(turn), ex * sin(turn) + ey * cos(turn))
        // Each line's start along a reading direction (u) and its extent down the display (v0 to v1): a few
        // corners, so worked out again in each comparison rather than kept beside the lines.
        func extent(_ line: RecognizedLine, _ ex: Double, _ ey: Double) -> (u: Double, v0: Double, v1: Double) {
            guard let c = line.corners else { return (0, 0, 0) }
            var u = Double.infinity, v0 = Double.infinity, v1 = -Double.infinity
            func add(_ p: Point) {
                let v = p.y * ex - p.x * ey
                u = min(u, p.x * ex + p.y * ey)
                v0 = min(v0, v)
                v1 = max(v1, v)
            }
            add(c.topLeft)
            add(c.topRight)
            add(c.bottomRight)
            add(c.bottomLeft)
            return (u, v0, v1)
        }
        lines.sort { first, second in
            let a = extent(first, ex, ey), b = extent(second, ex, ey)
            let (p, q) = turn == 0 ? (a, b) : (extent(first, tx, ty), extent(second, tx, ty))
            // Same row when they overlap down the display by half the smaller height: then along the reading.
            let overlap = min(a.v1, b.v1) - max(a.v0, b.v0)
            if overlap >= sameRowOverlap * min(a.v1 - a.v0, b.v1 - b.v0) { return p.u < q.u }
            return p.v0 < q.v0
        }
    }
}
