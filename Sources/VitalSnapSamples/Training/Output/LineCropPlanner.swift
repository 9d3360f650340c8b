import Foundation
import VitalSnapOCR

/// One line crop to cut: where (the jittered quad), and the text the recognizer should read there.
public struct LineCropPlan: Sendable {
    public var quad: LineQuad
    public var text: String
    /// The role of what was cropped (`value`, `unit`, ...), or `background` for a patch with nothing on it.
    public var role: String
}

/// Chooses a scene's line crops: one or two per readable reading line, with the quad moved as a detector
/// would err (centre shift, height, angle, ends extended outward or pulled in), and some crops whose text is
/// empty (unit labels, icons, background patches) so that the recognizer learns to emit nothing for them.
public enum LineCropPlanner {
    public static func plan(_ scene: TrainingScene, parameters p: TrainingSceneParameters, random: inout SampleRandom) -> [LineCropPlan] {
        var plans: [LineCropPlan] = []
        let readingQuads = scene.lines.filter { $0.role.isReading }.map(\.quad)
        for line in scene.lines where line.role.isReading && line.readable {
            let count = random.chance(p.secondCropChance) ? 2 : 1
            for _ in 0..<count {
                plans.append(LineCropPlan(
                    quad: jittered(line.quad, others: readingQuads.filter { $0 != line.quad }, p: p, random: &random),
                    text: line.text, role: line.role.rawValue))
            }
        }
        // A legend or an icon, whole and readable, clear of every reading line.
        let labels = scene.lines.filter {
            ($0.role == .unit || $0.role == .icon) && $0.readable && $0.digitHeight >= p.minimumLabelCropHeight
                && !$0.text.contains(where: \.isNumber)
        }
        if !labels.isEmpty && random.chance(p.labelCropChance) {
            let label = random.pick(labels)
            let quad = jittered(label.quad, others: readingQuads, p: p, random: &random, extend: false)
            if !readingQuads.contains(where: { overlaps($0, quad, grow: 0.1) }) {
                plans.append(LineCropPlan(quad: quad, text: "", role: label.role.rawValue))
            }
        }
        // A patch of background (or body) away from every text element.
        if random.chance(p.backgroundCropChance) {
            let all = scene.lines.map(\.quad)
            for _ in 0..<8 {
                let maxHeight = min(60, Double(min(scene.width, scene.height)) / 2)
                guard maxHeight > 8 else { break }
                let h = random.uniform(8...maxHeight)
                let length = h * random.uniform(1.5...6)
                let angle = random.chance(0.7) ? random.uniform(-0.3...0.3) : random.uniform(-Double.pi...Double.pi)
                let center = Point(x: random.uniform(0...Double(scene.width)), y: random.uniform(0...Double(scene.height)))
                let quad = LineQuad(center: center, angle: angle, length: length, digitHeight: h)
                if !all.contains(where: { overlaps($0, quad, grow: 0.3) }) {
                    plans.append(LineCropPlan(quad: quad, text: "", role: "background"))
                    break
                }
            }
        }
        return plans
    }

    /// `quad` moved as a detector would err. Ends are extended outward by up to `cropExtend` digit heights
    /// (possibly over a legend or icon: the text stays the same) but stop `cropClearance` short of any other
    /// reading line ahead, so a crop never takes in other digits.
    static func jittered(
        _ quad: LineQuad, others: [LineQuad], p: TrainingSceneParameters, random: inout SampleRandom, extend: Bool = true
    ) -> LineQuad {
        let h = quad.digitHeight, length = quad.length
        let c = quad.center, e = quad.direction, d = quad.down
        let shiftAlong = random.uniform(-p.cropShiftAlong...p.cropShiftAlong) * h
        let shiftAcross = random.uniform(-p.cropShiftAcross...p.cropShiftAcross) * h
        let heightScale = random.uniform(p.cropHeightScale)
        let angle = random.uniform(-p.cropAngle...p.cropAngle) * Double.pi / 180
        // Free room beyond each end, along the line, before another line that shares its band.
        var freeLeft = Double.infinity, freeRight = Double.infinity
        for other in others {
            let along = other.corners.map { ($0.x - c.x) * e.x + ($0.y - c.y) * e.y }
            let across = other.corners.map { ($0.x - c.x) * d.x + ($0.y - c.y) * d.y }
            guard across.max()! > -0.8 * h, across.min()! < 0.8 * h else { continue }
            if along.min()! >= length / 2 { freeRight = min(freeRight, along.min()! - length / 2) }
            if along.max()! <= -length / 2 { freeLeft = min(freeLeft, -length / 2 - along.max()!) }
        }
        func end(_ free: Double, towards sign: Double) -> Double {
            if extend && random.chance(0.55) {
                let room = free - p.cropClearance * h - max(0, sign * shiftAlong)
                return max(0, min(random.uniform(p.cropExtend) * h, room))
            }
            return -random.uniform(p.cropPullIn) * h
        }
        let left = end(freeLeft, towards: -1), right = end(freeRight, towards: 1)
        let newLength = max(h * 0.5, length + left + right)
        let along = shiftAlong + (right - left) / 2
        let center = Point(x: c.x + along * e.x + shiftAcross * d.x, y: c.y + along * e.y + shiftAcross * d.y)
        return LineQuad(center: center, angle: quad.angle + angle, length: newLength, digitHeight: h * heightScale)
    }

    /// Whether two quads overlap, `a` grown by `grow` of its digit height on every side (separating axes of
    /// both quads' edge directions; exact for the convex quads used here).
    static func overlaps(_ a: LineQuad, _ b: LineQuad, grow: Double) -> Bool {
        let g = grow * a.digitHeight
        let grownA = LineQuad(center: a.center, angle: a.angle, length: a.length + 2 * g, digitHeight: a.digitHeight + 2 * g)
        let pa = grownA.corners, pb = b.corners
        for poly in [pa, pb] {
            for i in 0..<4 {
                let p0 = poly[i], p1 = poly[(i + 1) % 4]
                let n = Point(x: -(p1.y - p0.y), y: p1.x - p0.x)
                let projA = pa.map { $0.x * n.x + $0.y * n.y }, projB = pb.map { $0.x * n.x + $0.y * n.y }
                if projA.max()! < projB.min()! || projB.max()! < projA.min()! { return false }
            }
        }
        return true
    }
}
