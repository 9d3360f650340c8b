/// A smooth random field that can be sampled anywhere (it tiles every `size` grid cells), for textures
/// that are stretched or rotated: wood grain is value noise sampled with a long scale along the grain and
/// a short one across it.
public struct NoiseField: Sendable {
    private let size: Int
    private let grid: [Float]

    public init(random: inout SampleRandom, size: Int = 64) {
        self.size = size
        grid = (0..<(size * size)).map { _ in Float(random.uniform(-1...1)) }
    }

    /// Value in about -1...1 at grid coordinates (u, v); one grid cell per unit.
    public func value(_ u: Double, _ v: Double) -> Float {
        let fu = u.rounded(.down), fv = v.rounded(.down)
        var tu = Float(u - fu), tv = Float(v - fv)
        tu = tu * tu * (3 - 2 * tu)
        tv = tv * tv * (3 - 2 * tv)
        let iu = Self.wrap(Int(fu), size), iv = Self.wrap(Int(fv), size)
        let iu1 = iu + 1 == size ? 0 : iu + 1, iv1 = iv + 1 == size ? 0 : iv + 1
        let a = at(iu, iv), b = at(iu1, iv), c = at(iu, iv1), d = at(iu1, iv1)
        return (a + (b - a) * tu) * (1 - tv) + (c + (d - c) * tu) * tv
    }

    func at(_ i: Int, _ j: Int) -> Float { grid[j * size + i] }

    static func wrap(_ i: Int, _ n: Int) -> Int { ((i % n) + n) % n }
}
