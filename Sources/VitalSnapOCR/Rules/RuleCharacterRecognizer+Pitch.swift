import VitalSnapImaging

/// The pitch: a display draws its digits in cells of one width at one pitch. Unreadable characters are read
/// again in the cell the pitch predicts; characters off the pitch, and ink in the cell just before or after the
/// number, mean the number may not be whole.
extension RuleCharacterRecognizer {
    /// Re-reads unreadable characters in the cell where a display of this pitch must have drawn them.
    ///
    /// A character's box comes from its ink, and ink goes wrong: a glare streak or the window frame widens
    /// it, a broken segment narrows it, and the probes then miss the segments. Displays draw digits in cells
    /// of one width at one pitch, learnt here from the clearly read digits; an unreadable character is tried
    /// again in the cell ending at its own right edge, starting at its left edge, and one pitch from each
    /// neighbour, and takes the clearest reading.
    mutating func rereadOnPitch(_ characters: [RecognizedCharacter], stroke: Int, lineLit: Double, height: Int)
        -> [RecognizedCharacter]
    {
        let Hd = Double(height)
        let pitchRules = configuration.pitch
        let clearDigits = characters.filter {
            SegmentAlphabet.isDigit($0.character) && $0.character != "1" && $0.confidence >= pitchRules.clearConfidence
                && Double($0.box.width) >= pitchRules.clearDigitMinimumWidth * Hd
        }
        guard clearDigits.count >= 1 else { return characters }
        let widths = clearDigits.map(\.box.width).sorted()
        let width = widths[widths.count / 2]
        let tops = clearDigits.map(\.box.minY).sorted(), bottoms = clearDigits.map(\.box.maxY).sorted()
        let top = tops[tops.count / 2], bottom = bottoms[bottoms.count / 2]
        let clearGlyphs = characters.filter {
            $0.character != "?" && $0.confidence >= pitchRules.clearConfidence && $0.character != "-"
        }
        let steps = zip(clearGlyphs.dropFirst(), clearGlyphs).map { $0.box.maxX - $1.box.maxX }
            .filter { Double($0) >= pitchRules.minimumStep * Double(width) && Double($0) <= pitchRules.maximumStep * Double(width) }.sorted()
        let pitch: Int? = steps.isEmpty ? nil : steps[steps.count / 2]

        var out = characters
        for i in out.indices where out[i].character == "?" && out[i].isAligned {
            let c = out[i]
            var rights = [c.box.maxX, c.box.minX + width]
            if let pitch {
                if i > 0, out[i - 1].character != "?" { rights.append(out[i - 1].box.maxX + pitch) }
                if i + 1 < out.count, out[i + 1].character != "?" { rights.append(out[i + 1].box.maxX - pitch) }
            }
            var best: RecognizedCharacter? = nil
            for right in rights {
                let box = PixelRect(x: right - width, y: top, width: width, height: bottom - top)
                guard box.minX >= 0, box.maxX <= mask.width else { continue }
                let lit = max(litLevel(in: box, fraction: configuration.ink.cellLitPercentile), configuration.ink.cellLitFloor * lineLit)
                let candidate = classifySegments(in: box, stroke: stroke, lit: lit)
                guard candidate.character != "?", candidate.confidence >= pitchRules.clearConfidence else { continue }
                if candidate.confidence > (best?.confidence ?? 0) { best = candidate }
            }
            if let best {
                logger.trace("     re-read \(c.box) on the pitch as \(best.character) \(best.box)")
                out[i] = best
            }
        }
        return out
    }

    /// Whether the characters look like one number of one display: a display draws its digits in cells of
    /// one width at one pitch (a `1` at the right of its cell, so right edges keep the pitch). Irregular
    /// spacing or widths mean a character is missing, an extra one was picked up, or this is not a
    /// seven-segment number at all (printed text, a grille).
    static func isRegular(_ characters: [RecognizedCharacter], _ configuration: Configuration.Pitch) -> Bool {
        let glyphs = characters.filter { $0.character != "." && $0.character != "-" }
        guard glyphs.count >= 2 else { return true }
        let edges = glyphs.map { Double($0.box.maxX) }
        let steps = zip(edges.dropFirst(), edges).map { $0 - $1 }
        let sortedSteps = steps.sorted()
        let pitch = sortedSteps[sortedSteps.count / 2]
        guard pitch > 0,
            steps.allSatisfy({ $0 >= configuration.regularMinimumStep * pitch && $0 <= configuration.regularMaximumStep * pitch })
        else { return false }
        let widths = glyphs.filter { $0.character != "1" && $0.character != "I" }.map { Double($0.box.width) }.sorted()
        if let typical = widths.isEmpty ? nil : widths[widths.count / 2] {
            guard widths.allSatisfy({ $0 >= configuration.regularMinimumWidth * typical && $0 <= configuration.regularMaximumWidth * typical })
            else { return false }
        }
        return true
    }

    /// Whether the cell just before or just after the number holds ink too faint or too broken to have been
    /// read: a digit under a reflection or washed out by glare. Displays leave unused cells blank, so ink
    /// there means the number may be longer than what was read (a lost leading 2 turns 247 into 47). Faint
    /// ghosts of unlit segments stay below the level looked for, and the window frame (a line that runs on
    /// past the digits) does not count.
    ///
    /// A next cell beyond the end of the line's image, where the frame goes on, was never looked at: the
    /// number may go on there too (the line was found from its last digits only, a reflection hiding the
    /// first ones), so that counts as well.
    mutating func somethingInNextCell(
        of characters: [RecognizedCharacter], band: PixelRect, lit: Double, typicalWidth: Double, line: RectifiedLine
    ) -> Bool {
        let next = configuration.nextCell
        let glyphs = characters.filter { $0.character != "." }
        guard let first = glyphs.first, let last = glyphs.last else { return false }
        let edges = glyphs.map(\.box.maxX)
        let steps = zip(edges.dropFirst(), edges).map { $0 - $1 }.sorted()
        let pitch = steps.isEmpty ? Int(configuration.pitch.fallbackPitch * typicalWidth) : steps[steps.count / 2]
        let width = Int(typicalWidth)
        let darkness = separator.darkness, background = separator.background
        let level = UInt8(min(255, next.inkLevel * lit))
        let percentile = configuration.ink.backgroundPercentile
        let insideLevel = Double(Histogram(background, in: glyphs.dropFirst().reduce(first.box) { $0.union($1.box) }).percentile(percentile))
        for right in [first.box.maxX - pitch, last.box.maxX + pitch] {
            // The cell, less a stroke's margin on each side, so the neighbours' strokes do not count.
            let inset = max(2, width / next.insetDivisor)
            let whole = PixelRect(x: right - width + inset, y: band.minY, width: width - 2 * inset, height: band.height)
            let cell = whole.intersection(darkness.bounds)
            if 2 * cell.width < whole.width, right < first.box.maxX {
                let centre = line.toFrame.apply(whole.midX, whole.midY)
                if line.frameBounds.contains(x: Int(centre.x), y: Int(centre.y)) { return true }
                continue
            }
            guard cell.width >= 3, cell.height >= 3 else { continue }
            // Beyond the display window (bezel, body) there is no cell to worry about.
            let here = Double(Histogram(background, in: cell).percentile(percentile))
            guard abs(here - insideLevel) <= next.backgroundTolerance * max(insideLevel, 1) else { continue }
            var count = 0, x0 = Int.max, x1 = Int.min, y0 = Int.max, y1 = Int.min
            for y in cell.minY..<cell.maxY {
                for x in cell.minX..<cell.maxX where darkness[x, y] >= level {
                    count += 1; x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
                }
            }
            guard Double(count) >= next.minimumInkShare * Double(cell.area) else { continue }
            let ink = PixelRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)
            // A digit, even faint or broken, has a vertical stroke of a good part of the cell's height; icons
            // (a battery, a drop) and flat bars (the edge of the window, a printed line) do not.
            var longestStroke = 0
            for x in cell.minX..<cell.maxX {
                var run = 0
                for y in cell.minY..<cell.maxY {
                    run = darkness[x, y] >= level ? run + 1 : 0
                    longestStroke = max(longestStroke, run)
                }
            }
            if Double(longestStroke) < next.minimumStroke * Double(band.height) { continue }
            // A unit symbol (°C, %) sits beside the top of the digits only; a digit, even a smaller one (the
            // tenths of a meter), reaches down towards the baseline.
            if Double(ink.maxY - band.minY) < next.minimumReachDown * Double(band.height) { continue }
            if continuesBeyond(ink, height: band.height) { continue }  // a frame or bezel edge, not a digit
            // A vertical line through a digit crosses at most three bars (a, g, d); a stack of more is a
            // signal-strength or battery gauge beside the number.
            var mostBars = 0
            for x in (ink.minX + ink.width / 3)...max(ink.minX + ink.width / 3, ink.maxX - 1 - ink.width / 3) {
                var bars = 0, inBar = false
                for y in cell.minY..<cell.maxY {
                    let on = darkness[x, y] >= level
                    if on && !inBar { bars += 1 }
                    inBar = on
                }
                mostBars = max(mostBars, bars)
            }
            if mostBars >= next.gaugeBars { continue }
            logger.trace("     ink in next cell \(cell): \(count) px, box \(ink), background \(here) vs \(insideLevel)")
            return true
        }
        return false
    }
}
