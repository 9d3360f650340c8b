import Foundation

/// A specular reflection on a training scene, in frame pixels: where it is, how strong, and which
/// characters it hides (washes out) or touches.
struct TrainingGlare {
    var center: CanvasPoint
    var radiusX: Double
    var radiusY: Double
    var angle: Double
    var strength: Double
    var core: Double

    /// How far the glare pulls a point towards white (as `FloatCanvas.addGlare` computes it).
    func weight(at p: CanvasPoint) -> Double {
        let d = normalized(p).length
        guard d < 1 else { return 0 }
        let edge = min(max(core, 0), 0.99)
        let t = min(max((d - edge) / (1 - edge), 0), 1)
        return strength * (1 - t * t * (3 - 2 * t))
    }

    /// `p` in the ellipse's own frame, where the ellipse is the unit circle.
    func normalized(_ p: CanvasPoint) -> CanvasPoint {
        let px = p.x - center.x, py = p.y - center.y
        let ca = cos(angle), sa = sin(angle)
        return CanvasPoint((px * ca + py * sa) / radiusX, (-px * sa + py * ca) / radiusY)
    }

    /// The weight at which a character counts as hidden.
    var hideLevel: Double

    /// The normalised radius inside which the glare reaches `level` (0 when it never does).
    func radius(reaching level: Double) -> Double {
        guard level > 0 else { return 1 }
        guard strength >= level else { return 0 }
        let edge = min(max(core, 0), 0.99)
        // The smoothstep falloff decreases in t: bisect for strength * falloff(t) = level.
        var lo = 0.0, hi = 1.0
        for _ in 0..<40 {
            let t = (lo + hi) / 2
            if strength * (1 - t * t * (3 - 2 * t)) >= level { lo = t } else { hi = t }
        }
        return edge + lo * (1 - edge)
    }

    /// True when the part of the glare at `level` or more overlaps the cell.
    func reaches(_ cell: QuadCorners, level: Double) -> Bool {
        let rho = radius(reaching: level)
        guard rho > 0 else { return false }
        return Self.polygon(cell.points.map(normalized), meetsDiskOfRadius: rho)
    }

    /// True when glare washes out any part of the cell (it then cannot be read for sure).
    func hides(_ cell: QuadCorners) -> Bool { reaches(cell, level: hideLevel) }

    /// Whether a convex polygon and the disk of radius `rho` about the origin overlap.
    static func polygon(_ points: [CanvasPoint], meetsDiskOfRadius rho: Double) -> Bool {
        var inside = true
        var sign = 0.0
        for i in 0..<points.count {
            let a = points[i], b = points[(i + 1) % points.count]
            let cross = (b.x - a.x) * (-a.y) - (b.y - a.y) * (-a.x)
            if cross != 0 {
                if sign == 0 { sign = cross > 0 ? 1 : -1 } else if (cross > 0 ? 1 : -1) != sign { inside = false }
            }
            // Distance from the origin to the edge.
            let ab = b - a
            let t = max(0, min(1, -(a.x * ab.x + a.y * ab.y) / max(1e-12, ab.x * ab.x + ab.y * ab.y)))
            if (a + ab * t).length < rho { return true }
        }
        return inside
    }
}

extension TrainingGlare {
    /// A glare of `kind` (`over-digit`: centred on a character of a reading line; `beside-digits`: on the
    /// display, touching no reading character; `body`: on the device away from them), or nil when none fits.
    static func place(
        _ kind: String, device: TrainingDevice, framed: [(DeviceTextElement, [QuadCorners])], transform: PlaneHomography,
        frameWidth: Int, frameHeight: Int, p: TrainingSceneParameters, random: inout SampleRandom
    ) -> TrainingGlare? {
        let frame = (0.0, 0.0, Double(frameWidth), Double(frameHeight))
        func inFrame(_ q: CanvasPoint) -> Bool { q.x >= frame.0 && q.y >= frame.1 && q.x <= frame.2 && q.y <= frame.3 }
        let window = device.window.map(transform.apply)
        let windowHeight = window.topLeft.distance(to: window.bottomLeft)
        switch kind {
        case "over-digit":
            let candidates = framed.filter { $0.0.role.isReading }.flatMap { element in element.1.filter { inFrame($0.centroid) } }
            guard !candidates.isEmpty else { return nil }
            let cell = random.pick(candidates)
            let cellHeight = cell.topLeft.distance(to: cell.bottomLeft)
            let size = random.uniform(p.glareOverDigitSize)
            return TrainingGlare(
                center: cell.centroid, radiusX: cellHeight * 0.7 * size, radiusY: cellHeight * 0.85 * size,
                angle: random.uniform(-0.5...0.5), strength: random.uniform(0.92...1), core: random.uniform(0.5...0.7),
                hideLevel: p.glareHidesAt)
        case "beside-digits", "body":
            for _ in 0..<12 {
                let point: CanvasPoint
                let r: Double
                if kind == "beside-digits" {
                    let wb = device.window.bounds
                    point = transform.apply(CanvasPoint(random.uniform(wb.minX...wb.maxX), random.uniform(wb.minY...wb.maxY)))
                    r = windowHeight * random.uniform(p.glareSize)
                } else {
                    point = transform.apply(CanvasPoint(random.uniform(0...device.width), random.uniform(0...device.height)))
                    r = windowHeight * random.uniform(p.glareSize) * 1.5
                }
                guard inFrame(point), r > 1 else { continue }
                let g = TrainingGlare(
                    center: point, radiusX: r * random.uniform(p.glareElongation), radiusY: r, angle: random.uniform(0...Double.pi),
                    strength: random.uniform(p.glareStrength), core: random.uniform(0.2...0.5), hideLevel: p.glareHidesAt)
                // Away from the digits: no reading cell may be touched at all.
                let touches = framed.contains { element in element.0.role.isReading && element.1.contains { g.reaches($0, level: 0) } }
                if !touches { return g }
            }
            return nil
        default:
            return nil
        }
    }
}
