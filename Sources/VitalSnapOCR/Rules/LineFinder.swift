import Foundation
import VitalSnapImaging

/// Chains character candidates into text lines: neighbours of the same polarity and similar height, side by
/// side, roughly level with each other. Digits of one number are spaced less than a digit height apart, while
/// unrelated blobs rarely line up that way.
public struct LineFinder: Sendable {
    public var configuration: Configuration

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
    }

    public func lines(from candidates: [CharacterCandidate]) -> [TextLine] {
        let c = configuration
        let unique = removingDuplicates(candidates)
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
                if gap > c.maximumGap * ha * c.maximumHeightRatio { break }  // sorted by minX: no later one is closer
                guard a.polarity == b.polarity else { continue }
                let hb = Double(b.box.height)
                let ratio = max(ha, hb) / min(ha, hb)
                guard ratio <= c.maximumHeightRatio else { continue }
                let h = (ha + hb) / 2
                guard gap <= c.maximumGap * h, gap >= c.minimumGap * h else { continue }
                guard abs(a.box.midY - b.box.midY) <= c.maximumVerticalOffset * h else { continue }
                let ra = find(i), rb = find(j)
                if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
            }
        }
        // The groups in the order of their first blob, not a dictionary's (whose order changes from run to run
        // and, through ties in the sorts below, changed what was read).
        var slot: [Int: Int] = [:]
        var groups: [[CharacterCandidate]] = []
        for i in 0..<sorted.count {
            let root = find(i)
            if let s = slot[root] { groups[s].append(sorted[i]) } else { slot[root] = groups.count; groups.append([sorted[i]]) }
        }
        // One blob alone is not a number: frames, icons and logos come alone, numbers have two or more digits.
        let lines = groups.filter { $0.count >= c.minimumCandidates }
            .map { Self.line(from: $0, configuration: c) }
        return (lines + stackedHalves(lines)).sorted { $0.digitHeight > $1.digitHeight }
    }

    /// LCDs often leave a wide gap between the upper and lower halves of their digits, and then the halves
    /// are found as two lines of half-height blobs, one above the other. Propose their union as a line too;
    /// reading decides which is right (two real lines stacked closely read badly when merged).
    /// Only lines of wide blobs qualify: half a digit is about as wide as it is tall, a whole one is not, so
    /// two real lines stacked closely (a blood pressure monitor's SYS above DIA) are not merged.
    func stackedHalves(_ lines: [TextLine]) -> [TextLine] {
        let c = configuration
        var merged: [TextLine] = []
        let halves = lines.filter { line in
            let all = line.candidates.map { Double($0.box.width) / Double($0.box.height) }
            let aspects = all.filter { $0 >= c.halfDigitBarAspect }.sorted()
            // The halves of `1`s are thin bars like whole `1`s; a line of nothing else qualifies too.
            return aspects.isEmpty ? !all.isEmpty : aspects[aspects.count / 2] >= c.halfDigitMinimumAspect
        }
        for upper in halves {
            for lower in halves where lower.polarity == upper.polarity && lower.centerY > upper.centerY {
                let a = upper.boundingBox, b = lower.boundingBox
                let h = (upper.digitHeight + lower.digitHeight) / 2
                guard max(upper.digitHeight, lower.digitHeight)
                    <= c.halvesMaximumHeightRatio * min(upper.digitHeight, lower.digitHeight)
                else { continue }
                let gap = Double(b.minY - a.maxY)
                guard gap <= c.halvesMaximumGap * h, gap >= c.halvesMinimumGap * h else { continue }
                let overlap = Double(min(a.maxX, b.maxX) - max(a.minX, b.minX))
                guard overlap >= c.halvesMinimumOverlap * Double(min(a.width, b.width)) else { continue }
                merged.append(Self.line(
                    from: upper.candidates + lower.candidates, height: Double(b.maxY - a.minY),
                    angle: (upper.angle + lower.angle) / 2, configuration: c))
            }
        }
        return merged
    }

    /// The same digit is often found at two pyramid levels; keep one box per place and polarity.
    func removingDuplicates(_ candidates: [CharacterCandidate]) -> [CharacterCandidate] {
        let c = configuration
        var kept: [CharacterCandidate] = []
        for candidate in candidates.sorted(by: { $0.level < $1.level }) {
            let duplicate = kept.contains { k in
                guard k.polarity == candidate.polarity else { return false }
                let overlap = k.box.intersection(candidate.box).area
                return Double(overlap) > c.duplicateOverlap * Double(min(k.box.area, candidate.box.area))
                    && Double(max(k.box.height, candidate.box.height))
                        < c.duplicateHeightRatio * Double(min(k.box.height, candidate.box.height))
            }
            if !duplicate { kept.append(candidate) }
        }
        return kept
    }

    /// `configuration`: only its `maximumAngle` is used, where the angle is not known.
    static func line(
        from members: [CharacterCandidate], height knownHeight: Double? = nil, angle knownAngle: Double? = nil,
        configuration: Configuration = .init()
    ) -> TextLine {
        let heights = members.map { Double($0.box.height) }.sorted()
        let height = knownHeight ?? heights[heights.count / 2]
        // Fit the centre line through the candidates' centres, weighting wide ones (a `1` is often offset).
        var angle: Double = knownAngle ?? 0
        if knownAngle == nil, members.count >= 2 {
            let xs = members.map(\.box.midX), ys = members.map(\.box.midY)
            let mx = xs.reduce(0, +) / Double(xs.count), my = ys.reduce(0, +) / Double(ys.count)
            var sxx: Double = 0, sxy: Double = 0
            for (x, y) in zip(xs, ys) { sxx += (x - mx) * (x - mx); sxy += (x - mx) * (y - my) }
            if sxx > 0 { angle = atan(sxy / sxx) }
            angle = max(-configuration.maximumAngle, min(configuration.maximumAngle, angle))
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
