import VitalSnapImaging

/// Decimal points: dots set aside before the cells are grouped, and put back between two digits where a point
/// stands free on the baseline or is fused to a digit's foot.
extension RuleCharacterRecognizer {
    /// Whether a piece of ink is a dot: small, squarish, sitting on the baseline (`bottom`). `height`: the digit
    /// height.
    func isDot(_ c: Component, bottom: Int, height Hd: Double) -> Bool {
        let points = configuration.points
        let w = Double(c.box.width), h = Double(c.box.height)
        return h <= points.maximumHeight * Hd && w <= points.maximumWidth * Hd && w >= points.minimumWidth * Hd
            && w / h >= points.minimumAspect && w / h <= points.maximumAspect
            && Double(c.box.maxY) >= Double(bottom) - points.baselineAbove * Hd
            && Double(c.box.maxY) <= Double(bottom) + points.baselineBelow * Hd
            && c.fill >= points.minimumFill
    }

    /// Decimal points: a dot about a stroke wide on the baseline between two digits, either standing free or
    /// touching the foot of a digit beside it (common on pumps and thermometers). A dot is not a broken-off
    /// piece of a digit: above it there is no ink.
    func insertingDecimalPoints(into characters: [RecognizedCharacter], dots: [Component], stroke: Int, bottom: Int)
        -> [RecognizedCharacter]
    {
        let points = configuration.points
        let t = max(2, stroke)
        // The digits' own baseline: the band can be a little taller than they are.
        let feet = characters.filter { SegmentAlphabet.isDigit($0.character) }.map(\.box.maxY).sorted()
        let bottom = feet.isEmpty ? bottom : feet[feet.count / 2]
        var out: [RecognizedCharacter] = []
        for (i, c) in characters.enumerated() {
            out.append(c)
            guard SegmentAlphabet.isDigit(c.character), i + 1 < characters.count,
                SegmentAlphabet.isDigit(characters[i + 1].character)
            else { continue }
            let next = characters[i + 1]
            let free = dots.first { d in
                let side = max(d.box.width, d.box.height)
                // Printed about a stroke wide: a speck of a pixel or two (binarized noise) is no point.
                return side >= max(points.minimumSide, (points.minimumSideTenths * t) / 10)
                    && side <= (points.maximumWidthTenths * t) / 10
                    && d.area >= max(points.minimumArea, (t * t) / points.minimumAreaDivisor)
                    && d.box.minX >= c.box.maxX - t && d.box.maxX <= next.box.minX + t
                    && !characters.contains {
                        Double(min($0.box.maxX, d.box.maxX) - max($0.box.minX, d.box.minX))
                            > points.maximumCharacterOverlap * Double(d.box.width)
                    }
                    // Nothing right above it: the broken-off tip of a stroke has its stroke there.
                    && mask.inkCount(in: PixelRect(x: d.box.minX, y: d.box.minY - 2 * t, width: d.box.width, height: 2 * t - 1)) == 0
            }
            if let dot = free?.box ?? attachedDot(after: c.box, before: next.box, stroke: t, bottom: bottom) {
                out.append(RecognizedCharacter(character: ".", confidence: 1, segments: [], box: dot))
            }
        }
        return out
    }

    /// A dot fused to the foot of the digit before (right of its lower-right stroke) or after (left of its
    /// lower-left stroke): ink in the bottom stroke's rows that sticks out sideways, with nothing above it.
    func attachedDot(after left: PixelRect, before right: PixelRect, stroke t: Int, bottom: Int) -> PixelRect? {
        let points = configuration.points
        // Row ranges built with `span` never run backwards, whatever the boxes look like.
        func span(_ a: Int, _ b: Int) -> Range<Int> { a..<max(a, b) }
        let rows = span(bottom - t - 1, min(mask.height, bottom + 1))
        let clearRows = span(bottom - 3 * t, bottom - t - 1)
        func columnHasInk(_ x: Int, _ r: Range<Int>) -> Bool {
            guard x >= 0, x < mask.width else { return false }
            for y in r where y >= 0 && y < mask.height && mask[x, y] { return true }
            return false
        }
        // Leftmost ink of the right digit above its foot, and rightmost of the left digit.
        var rightBody = right.maxX, leftBody = left.minX
        for x in right.minX..<right.maxX where columnHasInk(x, span(right.minY, bottom - t - 1)) { rightBody = x; break }
        for x in stride(from: left.maxX - 1, through: left.minX, by: -1) where columnHasInk(x, span(left.minY, bottom - t - 1)) {
            leftBody = x
            break
        }
        // Columns between the two bodies with ink on the baseline and none above: the dot.
        var x0 = Int.max, x1 = Int.min
        for x in (leftBody + 1)..<max(leftBody + 1, rightBody) where columnHasInk(x, rows) && !columnHasInk(x, clearRows) {
            x0 = min(x0, x)
            x1 = max(x1, x)
        }
        guard x0 <= x1 else { return nil }
        let width = x1 - x0 + 1
        // At least most of a stroke wide: the foot of a stroke still slanted a little sticks out only a pixel
        // or two.
        guard width >= (points.fusedMinimumWidthTenths * t) / 10, width <= (points.maximumWidthTenths * t) / 10 else { return nil }
        // Not the bottom bar of a digit running on: the dot must stand apart from the body it touches by
        // being narrower than a digit and sitting in the gap.
        guard x0 > left.maxX - t || x1 < right.minX + t else { return nil }
        // Solid, as printed: scattered specks of noise on the baseline leave most of their box empty.
        var y0 = Int.max, y1 = Int.min
        for y in rows where y >= 0 && y < mask.height {
            for x in x0...x1 where mask[x, y] { y0 = min(y0, y); y1 = max(y1, y); break }
        }
        guard y0 <= y1 else { return nil }
        let ink = PixelRect(x: x0, y: y0, width: width, height: y1 - y0 + 1)
        guard Double(mask.inkCount(in: ink)) >= points.fusedMinimumFill * Double(ink.area) else { return nil }
        return PixelRect(x: x0, y: bottom - t - 1, width: width, height: t + 1)
    }
}
