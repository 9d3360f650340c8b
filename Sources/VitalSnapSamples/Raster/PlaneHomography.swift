/// A projective map of the plane (3x3 matrix, row-major, acting on (x, y, 1)).
///
/// A flat device photographed from an angle is exactly a homography of its flat rendering, so this is how the
/// rendered meter gets its perspective.
public struct PlaneHomography: Sendable, Hashable {
    public var m: [Double]

    public init(matrix: [Double]) {
        precondition(matrix.count == 9, "a homography has 9 entries")
        m = matrix
    }

    public static let identity = PlaneHomography(matrix: [1, 0, 0, 0, 1, 0, 0, 0, 1])

    /// The homography taking each `source[i]` to `destination[i]` (4 pairs, no three points on a line);
    /// nil when the points are degenerate.
    ///
    /// Solves the 8x8 linear system of the direct linear transform with h33 = 1.
    public init?(from source: [CanvasPoint], to destination: [CanvasPoint]) {
        guard source.count == 4, destination.count == 4 else { return nil }
        var a = [[Double]](repeating: [Double](repeating: 0, count: 9), count: 8)
        for i in 0..<4 {
            let (x, y) = (source[i].x, source[i].y)
            let (u, v) = (destination[i].x, destination[i].y)
            a[2 * i] = [x, y, 1, 0, 0, 0, -u * x, -u * y, u]
            a[2 * i + 1] = [0, 0, 0, x, y, 1, -v * x, -v * y, v]
        }
        guard let h = Self.solve(&a) else { return nil }
        m = h + [1]
    }

    public init?(from source: QuadCorners, to destination: QuadCorners) {
        self.init(from: source.points, to: destination.points)
    }

    public func apply(_ p: CanvasPoint) -> CanvasPoint {
        let w = m[6] * p.x + m[7] * p.y + m[8]
        return CanvasPoint((m[0] * p.x + m[1] * p.y + m[2]) / w, (m[3] * p.x + m[4] * p.y + m[5]) / w)
    }

    /// The map that undoes this one (adjugate; the overall scale of a homography does not matter).
    public var inverse: PlaneHomography {
        let a = m
        let inv: [Double] = [
            a[4] * a[8] - a[5] * a[7], a[2] * a[7] - a[1] * a[8], a[1] * a[5] - a[2] * a[4],
            a[5] * a[6] - a[3] * a[8], a[0] * a[8] - a[2] * a[6], a[2] * a[3] - a[0] * a[5],
            a[3] * a[7] - a[4] * a[6], a[1] * a[6] - a[0] * a[7], a[0] * a[4] - a[1] * a[3],
        ]
        let s = inv[8] != 0 ? inv[8] : 1
        return PlaneHomography(matrix: inv.map { $0 / s })
    }

    /// Gauss-Jordan elimination with partial pivoting on an 8x9 augmented matrix.
    private static func solve(_ a: inout [[Double]]) -> [Double]? {
        let n = 8
        for col in 0..<n {
            var pivot = col
            for row in col..<n where abs(a[row][col]) > abs(a[pivot][col]) { pivot = row }
            guard abs(a[pivot][col]) > 1e-12 else { return nil }
            a.swapAt(col, pivot)
            let p = a[col][col]
            for j in col...n { a[col][j] /= p }
            for row in 0..<n where row != col {
                let f = a[row][col]
                if f != 0 { for j in col...n { a[row][j] -= f * a[col][j] } }
            }
        }
        return (0..<n).map { a[$0][n] }
    }
}
