import Foundation
import VitalSnapImaging

/// Chains character candidates into text lines: neighbours of the same polarity and similar height, side by
/// side, roughly level with each other. Digits of one number are spaced less than a digit height apart, while
/// unrelated blobs rarely line up that way.
public struct LineFinder: Sendable {
    public var maximumHeightRatio = 1.4
    /// Largest horizontal gap between neighbours, in digit heights (a `1` sits at the right of a wide cell).
    public var maximumGap = 1.0
    /// Largest vertical offset between neighbours' centres, in digit heights.
    public var maximumVerticalOffset = 0.22
    public var minimumCandidates = 2

    public init() {}

    public func lines(from candidates: [CharacterCandidate]) -> [TextLine] {
        let unique = Self.removingDuplicates(candidates)
        let sorted = unique.sorted { $0.box.minX < $1.box.minX }
        var parent = Array(0..<sorted.count)
        func find(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
            return i
        }
        for i in 0..<sorted.count {
            let a = sorted[i]
            let ha = Double(a.box.height)
            for j in (i + 1)..<sorted.count {
                let b = sorted[j]
                let gap = Double(b.box.minX - a.box.maxX)
                if gap > maximumGap * ha * maximumHeightRatio { break }  // sorted by minX: no later one is closer
                guard a.polarity == b.polarity else { continue }
                let hb = Double(b.box.height)
                let ratio = max(ha, hb) / min(ha, hb)
                guard ratio <= maximumHeightRatio else { continue }
                let h = (ha + hb) / 2
                guard gap <= maximumGap * h, gap >= -0.35 * h else { continue }
                guard abs(a.box.midY - b.box.midY) <= maximumVerticalOffset * h else { continue }
                let ra = find(i), rb = find(j)
                if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
            }
        }
        var groups: [Int: [CharacterCandidate]] = [:]
        for i in 0..<sorted.count { groups[find(i), default: []].append(sorted[i]) }
        // One blob alone is not a number: frames, icons and logos come alone, numbers have two or more digits.
        return groups.values.filter { $0.count >= minimumCandidates }.map(Self.line(from:))
            .sorted { $0.digitHeight > $1.digitHeight }
    }

    /// The same digit is often found at two pyramid levels; keep one box per place and polarity.
    static func removingDuplicates(_ candidates: [CharacterCandidate]) -> [CharacterCandidate] {
        var kept: [CharacterCandidate] = []
        for c in candidates.sorted(by: { $0.level < $1.level }) {
            let duplicate = kept.contains { k in
                guard k.polarity == c.polarity else { return false }
                let overlap = k.box.intersection(c.box).area
                return Double(overlap) > 0.6 * Double(min(k.box.area, c.box.area))
                    && Double(max(k.box.height, c.box.height)) < 1.4 * Double(min(k.box.height, c.box.height))
            }
            if !duplicate { kept.append(c) }
        }
        return kept
    }

    static func line(from members: [CharacterCandidate]) -> TextLine {
        let heights = members.map { Double($0.box.height) }.sorted()
        let height = heights[heights.count / 2]
        // Fit the centre line through the candidates' centres, weighting wide ones (a `1` is often offset).
        var angle = 0.0
        if members.count >= 2 {
            let xs = members.map(\.box.midX), ys = members.map(\.box.midY)
            let mx = xs.reduce(0, +) / Double(xs.count), my = ys.reduce(0, +) / Double(ys.count)
            var sxx = 0.0, sxy = 0.0
            for (x, y) in zip(xs, ys) { sxx += (x - mx) * (x - mx); sxy += (x - mx) * (y - my) }
            if sxx > 0 { angle = atan(sxy / sxx) }
            angle = max(-0.3, min(0.3, angle))
        }
        let box = members.dropFirst().reduce(members[0].box) { $0.union($1.box) }
        let cx = box.midX, cy = box.midY
        // Length along the direction of the line, between the outermost candidate edges.
        let dx = cos(angle), dy = sin(angle)
        var lo = Double.infinity, hi = -Double.infinity
        for m in members {
            for (x, y) in [(Double(m.box.minX), m.box.midY), (Double(m.box.maxX), m.box.midY)] {
                let s = (x - cx) * dx + (y - cy) * dy
                lo = min(lo, s)
                hi = max(hi, s)
            }
        }
        let mid = (lo + hi) / 2
        return TextLine(
            candidates: members, polarity: members[0].polarity,
            centerX: cx + mid * dx, centerY: cy + mid * dy, angle: angle, length: hi - lo, digitHeight: height)
    }
}
