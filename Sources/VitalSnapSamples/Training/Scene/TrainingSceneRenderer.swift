import Foundation
import VitalSnapImaging
import VitalSnapOCR

/// Renders training scene `index` of a set: a random device (or none) framed as a room photo, a close-up, a
/// display, line or field crop, drawn in colour at the output size, with the photo's flaws, and annotated.
///
/// Everything is drawn straight into the final frame: the device's shapes are polygons in device units,
/// carried into the frame by the camera's homography (straight edges stay straight), so there is no large
/// intermediate layer to resample. A scene is a pure function of (set seed, index, parameters).
public enum TrainingSceneRenderer {
    public static func render(seed: UInt64, index: Int, parameters p: TrainingSceneParameters = .standard) -> TrainingScene {
        var random = SampleRandom(seed: TrainingSeeds.scene(seed, index: index))
        var framing = random.pick(p.framingWeights)
        var style: [(key: String, value: StyleValue)] = []
        guard framing != .noDisplay else { return empty(p, random: &random) }

        let program = random.pick(p.programWeights)
        let device = DeviceGenerator.random(program, parameters: p, random: &random)
        let readingElements = device.elements.filter { $0.role.isReading }
        if (framing == .lineCrop || framing == .fieldCrop) && readingElements.isEmpty { framing = .closeUp }
        if framing == .room && program.isInstallation && random.chance(p.installationCloseUpChance) { framing = .closeUp }

        // Frame size and the region to frame (device units), with the pixels per unit it gets.
        var frameW: Int, frameH: Int
        var target: QuadCorners
        var scale: Double
        let cropped = framing.isCrop
        switch framing {
        case .room, .closeUp, .noDisplay:
            (frameW, frameH) = photoSize(p, random: &random)
            if framing == .room {
                // The whole device, but never so small that its window is a speck: big bodies (scales, pumps)
                // are then framed around the window and run out of the picture.
                target = QuadCorners(x: 0, y: 0, width: device.width, height: device.height)
                scale = random.uniform(p.roomDeviceFill) * min(Double(frameW) / device.width, Double(frameH) / device.height)
                let wb = device.window.bounds
                let windowScale = random.uniform(p.roomWindowFill) * Double(min(frameW, frameH)) / (wb.maxX - wb.minX)
                if windowScale > scale {
                    scale = windowScale
                    let grow = (wb.maxX - wb.minX) * 0.6
                    target = QuadCorners(
                        x: max(0, wb.minX - grow), y: max(0, wb.minY - grow),
                        width: min(device.width, wb.maxX + grow) - max(0, wb.minX - grow),
                        height: min(device.height, wb.maxY + grow) - max(0, wb.minY - grow))
                }
            } else {
                let wb = device.window.bounds
                let grow = (wb.maxY - wb.minY) * 0.08
                target = QuadCorners(x: wb.minX - grow, y: wb.minY - grow, width: wb.maxX - wb.minX + 2 * grow, height: wb.maxY - wb.minY + 2 * grow)
                let tb = target.bounds
                scale = random.uniform(p.closeUpWindowFill) * min(Double(frameW) / (tb.maxX - tb.minX), Double(frameH) / (tb.maxY - tb.minY))
            }
        case .displayCrop:
            let w = random.uniform(p.displayCropWidth)
            frameW = Int(w.rounded())
            frameH = Int((w / random.uniform(p.displayCropAspect)).rounded())
            target = device.window
            let tb = target.bounds
            scale = random.uniform(p.displayCropFill) * min(Double(frameW) / (tb.maxX - tb.minX), Double(frameH) / (tb.maxY - tb.minY))
        case .lineCrop, .fieldCrop:
            let values = readingElements.filter { $0.role == .value }
            let element = values.isEmpty || random.chance(0.15) ? random.pick(readingElements) : random.pick(values)
            let box = (framing == .lineCrop ? element.quad : element.fieldBox).bounds
            let h = box.maxY - box.minY
            if framing == .lineCrop {
                let across = h * random.uniform(p.lineCropMarginAcross), along = h * random.uniform(p.lineCropMarginAlong)
                target = QuadCorners(x: box.minX - along, y: box.minY - across, width: box.maxX - box.minX + 2 * along, height: h + 2 * across)
                scale = random.uniform(p.lineCropDigitHeight) / h
                frameW = max(16, Int((scale * (box.maxX - box.minX + 2 * along)).rounded()))
                frameH = max(12, Int((scale * (h + 2 * across)).rounded()))
            } else {
                let margin = h * random.uniform(0.04...0.3)
                target = QuadCorners(x: box.minX - margin, y: box.minY - margin, width: box.maxX - box.minX + 2 * margin, height: h + 2 * margin)
                let w = random.uniform(p.fieldCropWidth)
                frameW = Int(w.rounded())
                frameH = max(12, Int((w * (h + 2 * margin) / (box.maxX - box.minX + 2 * margin) * random.uniform(0.95...1.3)).rounded()))
                scale = random.uniform(p.fieldCropFill) * min(Double(frameW) / (box.maxX - box.minX + 2 * margin), Double(frameH) / (h + 2 * margin))
            }
        }
        style.append(("framing", .text(framing.rawValue)))
        style.append(("device", .text(program.rawValue)))

        // Pose: tilt and perspective, kept small enough that every device point stays in front of the camera.
        var tilt = cropped ? random.uniform(p.cropTilt) : (random.chance(p.wideTiltChance) ? random.uniform(p.wideTilt) : random.uniform(p.tilt))
        let perspectiveRange = cropped ? p.cropPerspective : p.perspective
        var pitch = random.uniform(perspectiveRange) * (framing == .closeUp ? 0.7 : 1)
        var yaw = random.uniform(perspectiveRange) * (framing == .closeUp ? 0.7 : 1)
        let tc = target.centroid
        let reach = [CanvasPoint(0, 0), CanvasPoint(device.width, 0), CanvasPoint(0, device.height), CanvasPoint(device.width, device.height)]
            .map { $0.distance(to: tc) * scale }.max() ?? 1
        let focal = 0.9 * Double(max(frameW, frameH))
        let maxAngle = asin(min(1, 0.45 * focal / max(1, reach))) * 180 / .pi
        pitch = max(-maxAngle, min(maxAngle, pitch))
        yaw = max(-maxAngle, min(maxAngle, yaw))

        // Where the target's centre lands: anywhere it fits, or pushed partly out of the frame.
        let tb = target.bounds
        let targetW = (tb.maxX - tb.minX) * scale, targetH = (tb.maxY - tb.minY) * scale
        var center = CanvasPoint(Double(frameW) / 2, Double(frameH) / 2)
        if !cropped {
            center.x += random.uniform(-1...1) * max(0, Double(frameW) - targetW) / 2
            center.y += random.uniform(-1...1) * max(0, Double(frameH) - targetH) / 2
        }
        // A cut puts one edge of the target `cutOffAmount` of its size past the frame's edge.
        let cut = framing != .lineCrop && random.chance(p.cutOffChance)
        if cut {
            let amount = random.uniform(p.cutOffAmount)
            switch random.int(0...3) {
            case 0: center.x = targetW / 2 - amount * targetW
            case 1: center.x = Double(frameW) - targetW / 2 + amount * targetW
            case 2: center.y = targetH / 2 - amount * targetH
            default: center.y = Double(frameH) - targetH / 2 + amount * targetH
            }
        }
        var transform = PlaneHomography.identity
        for attempt in 0..<24 {
            transform = pose(device, target: target, scale: scale, center: center, tilt: tilt, pitch: pitch, yaw: yaw, frameLongSide: Double(max(frameW, frameH)))
            if cut { break }
            // Without a cut, the target must lie inside the frame: shrink (photos) or straighten (crops).
            let b = target.map(transform.apply).bounds
            let margin = cropped ? 0 : 0.02 * Double(min(frameW, frameH))
            if b.minX >= margin && b.minY >= margin && b.maxX <= Double(frameW) - margin && b.maxY <= Double(frameH) - margin { break }
            if cropped || attempt > 16 {
                tilt *= 0.6; pitch *= 0.6; yaw *= 0.6
                if attempt > 8 { scale *= 0.97 }
            } else {
                scale *= 0.94
                center.x += (Double(frameW) / 2 - center.x) * 0.25
                center.y += (Double(frameH) / 2 - center.y) * 0.25
            }
        }
        style.append(("tilt", .number(tilt)))
        style.append(("perspective", .number(max(abs(pitch), abs(yaw)))))
        style.append(("cut_off", .flag(cut)))

        // Surroundings.
        let surfaces: [TrainingBackground.Surface] = program.isInstallation ? [.wall, .panel] : TrainingBackground.Surface.allCases
        let surface = framing == .room || framing == .closeUp ? random.pick(surfaces) : .desk
        var (canvas, surfaceColor) = TrainingBackground.paint(width: frameW, height: frameH, surface: surface, random: &random)
        if (framing == .room || framing == .closeUp) && !program.isInstallation && random.chance(p.clutterChance) {
            TrainingBackground.addClutter(&canvas, count: random.int(1...5), random: &random)
        }
        style.append(("surface", .text(surface.rawValue)))
        style.append(("surface_color", .color(surfaceColor.bytes)))
        if framing == .room || framing == .closeUp {
            let shadow = random.uniform(p.shadow)
            let light = random.uniform(0...(2 * Double.pi))
            let offset = 0.015 * Double(max(frameW, frameH))
            let outline = device.outline.map { transform.apply($0) }.map { CanvasPoint($0.x - cos(light) * offset, $0.y - sin(light) * offset) }
            canvas.addSoftShadow(outline: outline, sigma: 0.012 * Double(max(frameW, frameH)), amount: Float(shadow))
        }

        // The device.
        let windowCenter = device.window.centroid
        let unitScale = localScale(transform, at: windowCenter)
        for op in device.ops { paint(op, transform: transform, unitScale: unitScale, on: &canvas) }
        describe(device, into: &style)

        // Glare: beside the digits, over one, on the body, or none.
        let u = random.unit() / (cropped ? p.cropGlareFactor : 1)
        let glareKind = u < p.glareOverDigitChance ? "over-digit" : u < p.glareOverDigitChance + p.glareBesideChance ? "beside-digits"
            : u < p.glareOverDigitChance + p.glareBesideChance + p.glareBodyChance ? "body" : "none"
        let framed = device.elements.map { element in (element, element.cells.map { $0.map(transform.apply) }) }
        let glare = TrainingGlare.place(glareKind, device: device, framed: framed, transform: transform, frameWidth: frameW, frameHeight: frameH, p: p, random: &random)
        if let glare {
            canvas.addGlare(center: glare.center, radiusX: glare.radiusX, radiusY: glare.radiusY, angle: glare.angle, strength: glare.strength, core: glare.core)
        }
        style.append(("glare", .text(glare == nil ? "none" : glareKind)))

        // Light, exposure, white balance, noise, blur.
        let lightStrength = random.uniform(p.lightStrength), vignette = random.uniform(p.vignette)
        let lightAngle = random.uniform(0...(2 * Double.pi))
        let exposure = Float(random.uniform(p.exposure))
        let warm = Float(random.uniform(p.whiteBalance))
        canvas.applyLighting(
            angle: lightAngle, strength: lightStrength, vignette: vignette, gain: RGBColor(exposure * (1 + warm), exposure, exposure * (1 - warm)))
        let noise = random.uniform(p.noise)
        var noiseRandom = random.fork()
        canvas.addNoise(sigma: Float(noise), chroma: Float(noise * random.uniform(p.chromaNoise)), random: &noiseRandom)
        let mainStroke = device.font.strokeFraction * device.mainDigitHeight * unitScale
        let blur = min(random.uniform(p.blur), max(0.25, p.maxBlurOverMainStroke * mainStroke))
        canvas.gaussianBlur(sigma: blur)
        style.append(("light", .number(lightStrength)))
        style.append(("vignette", .number(vignette)))
        style.append(("exposure", .number(Double(exposure))))
        style.append(("noise", .number(noise)))
        style.append(("blur", .number(blur)))

        var rgb = canvas.rgbBytes()
        let binarized = framing == .fieldCrop && random.chance(p.fieldCropBinarizedChance)
        if binarized {
            let digitHeight = device.mainDigitHeight * unitScale
            let threshold = AdaptiveThreshold(
                radius: max(3, Int((digitHeight * random.uniform(p.binarizeRadius)).rounded())),
                k: random.uniform(p.binarizeDeviation), minimumContrast: random.uniform(p.binarizeContrast))
            RGBImage.binarize(&rgb, width: frameW, height: frameH, threshold: threshold, lightInk: device.look.ink.luma > device.look.background.luma)
        }
        style.append(("binarized", .flag(binarized)))

        // Annotations in the frame, then the quarter turn.
        var lines: [TrainingLine] = []
        for (element, cells) in framed {
            guard let line = annotate(
                element, cells: cells, transform: transform, frameWidth: frameW, frameHeight: frameH, blur: blur, glare: glare,
                unitScale: localScale(transform, at: element.quad.centroid), binarized: binarized, p: p)
            else { continue }
            lines.append(line)
        }
        let turnChance = framing.isCrop ? p.cropQuarterTurnChance : p.quarterTurnChance
        let turns = random.chance(turnChance) ? random.int(1...3) : 0
        let quality = Int(random.uniform(binarized ? max(60, p.jpegQuality.lowerBound)...p.jpegQuality.upperBound : p.jpegQuality).rounded())
        style.append(("jpeg_quality", .number(Double(quality))))
        return finish(
            rgb: rgb, width: frameW, height: frameH, turns: turns, quality: quality, lines: lines,
            display: device.window.map(transform.apply), style: style)
    }

    /// A scene with no display: a surface and things on it.
    static func empty(_ p: TrainingSceneParameters, random: inout SampleRandom) -> TrainingScene {
        let (w, h) = photoSize(p, random: &random)
        let surface = random.pick(TrainingBackground.Surface.allCases)
        var (canvas, color) = TrainingBackground.paint(width: w, height: h, surface: surface, random: &random)
        TrainingBackground.addClutter(&canvas, count: random.int(1...6), random: &random)
        let angle = random.uniform(0...(2 * Double.pi)), strength = random.uniform(p.lightStrength)
        canvas.applyLighting(angle: angle, strength: strength, vignette: random.uniform(p.vignette), gain: RGBColor(1, 1, 1))
        let noise = random.uniform(p.noise)
        var noiseRandom = random.fork()
        canvas.addNoise(sigma: Float(noise), chroma: Float(noise * 0.3), random: &noiseRandom)
        canvas.gaussianBlur(sigma: random.uniform(p.blur))
        let turns = random.chance(p.quarterTurnChance) ? random.int(1...3) : 0
        let quality = Int(random.uniform(p.jpegQuality).rounded())
        let style: [(key: String, value: StyleValue)] = [
            ("framing", .text(TrainingFraming.noDisplay.rawValue)), ("surface", .text(surface.rawValue)),
            ("surface_color", .color(color.bytes)), ("noise", .number(noise)), ("jpeg_quality", .number(Double(quality))),
        ]
        return finish(rgb: canvas.rgbBytes(), width: w, height: h, turns: turns, quality: quality, lines: [], display: nil, style: style)
    }

    /// Applies the quarter turn to the pixels and to every annotated point.
    static func finish(
        rgb: [UInt8], width: Int, height: Int, turns: Int, quality: Int, lines: [TrainingLine], display: QuadCorners?,
        style: [(key: String, value: StyleValue)]
    ) -> TrainingScene {
        let rotated = RGBImage.rotate(rgb, width: width, height: height, clockwiseTurns: turns)
        func turn(_ p: Point) -> Point {
            let q = QuarterTurn.rotate(CanvasPoint(p.x, p.y), width: width, height: height, clockwiseTurns: turns)
            return Point(x: q.x, y: q.y)
        }
        let turnedLines = lines.map { line -> TrainingLine in
            var l = line
            l.quad = line.quad.map(turn)
            return l
        }
        let displayPoints = display.map { $0.points.map { turn(Point(x: $0.x, y: $0.y)) } }
        return TrainingScene(
            width: rotated.width, height: rotated.height, rgb: rotated.rgb, jpegQuality: quality, quarterTurns: turns,
            lines: turnedLines, display: displayPoints, style: style)
    }

    /// Photo size: a long side and an aspect ratio.
    static func photoSize(_ p: TrainingSceneParameters, random: inout SampleRandom) -> (Int, Int) {
        let long = random.uniform(random.pick(p.photoLongSide))
        let aspect = random.chance(p.oddAspectWeight) ? random.uniform(p.oddAspect) : random.pick(p.photoAspects)
        let (w, h) = aspect >= 1 ? (long, long / aspect) : (long * aspect, long)
        return (max(16, Int(w.rounded())), max(16, Int(h.rounded())))
    }

    /// The homography from device units to the frame that puts `target` at `center`, `scale` pixels per unit.
    static func pose(
        _ device: TrainingDevice, target: QuadCorners, scale: Double, center: CanvasPoint, tilt: Double, pitch: Double,
        yaw: Double, frameLongSide: Double
    ) -> PlaneHomography {
        let tb = target.bounds
        return CameraPose.homography(
            layerWidth: device.width, layerHeight: device.height,
            display: QuadCorners(x: tb.minX, y: tb.minY, width: tb.maxX - tb.minX, height: tb.maxY - tb.minY),
            displayWidthPixels: (tb.maxX - tb.minX) * scale, center: center, tiltDegrees: tilt, pitchDegrees: pitch,
            yawDegrees: yaw, frameLongSide: frameLongSide)
    }

    /// Frame pixels per device unit near `point` (the square root of the map's local area change).
    static func localScale(_ h: PlaneHomography, at point: CanvasPoint) -> Double {
        let a = h.apply(point), bx = h.apply(point + CanvasPoint(1, 0)), by = h.apply(point + CanvasPoint(0, 1))
        let ex = bx - a, ey = by - a
        return abs(ex.x * ey.y - ex.y * ey.x).squareRoot()
    }

    /// Draws one paint step of the device through the pose.
    static func paint(_ op: PaintOp, transform: PlaneHomography, unitScale: Double, on canvas: inout ColorCanvas) {
        let shapes = op.shapes.map { $0.map { $0.map(transform.apply) } }
        switch op.paint {
        case .solid(let color):
            guard let mask = CoverageMask(covering: shapes, canvasWidth: canvas.width, canvasHeight: canvas.height) else { return }
            canvas.blend(mask, color: color, opacity: op.opacity)
        case .gradient(let from, let start, let to, let end):
            guard let mask = CoverageMask(covering: shapes, canvasWidth: canvas.width, canvasHeight: canvas.height) else { return }
            canvas.blend(mask, from: from, at: transform.apply(start), to: to, at: transform.apply(end), opacity: op.opacity)
        case .glow(let color, let amount, let sigma):
            let s = sigma * unitScale
            guard s > 0.3, var mask = CoverageMask(
                covering: shapes, canvasWidth: canvas.width, canvasHeight: canvas.height, padding: Int((3 * s).rounded(.up)) + 1)
            else { return }
            mask.blur(sigma: s)
            canvas.add(mask, color: color, amount: amount * op.opacity)
        }
    }

    /// The device's look for the style notes.
    static func describe(_ device: TrainingDevice, into style: inout [(key: String, value: StyleValue)]) {
        style.append(("display", .text(device.look.kind.rawValue)))
        style.append(("display_color", .color(device.look.background.bytes)))
        var inks: [[Int]] = []
        for element in device.elements where element.role.isReading && !inks.contains(element.ink.bytes) { inks.append(element.ink.bytes) }
        style.append(("ink", .colors(inks.isEmpty ? [device.look.ink.bytes] : inks)))
        style.append(("body_color", .color(device.bodyColor.bytes)))
        style.append(("font", .text(device.font.name)))
        style.append(("slant", .number(device.font.slant)))
        style.append(("stroke", .number(device.font.strokeFraction)))
        style.append(("ghost", .number(Double(device.look.ghost))))
        style.append(("glow", .number(Double(device.look.glow))))
    }

    // MARK: Annotation

    static func annotate(
        _ element: DeviceTextElement, cells: [QuadCorners], transform: PlaneHomography, frameWidth: Int, frameHeight: Int,
        blur: Double, glare: TrainingGlare?, unitScale: Double, binarized: Bool, p: TrainingSceneParameters
    ) -> TrainingLine? {
        let quad = element.quad.map(transform.apply)
        let W = Double(frameWidth), H = Double(frameHeight)
        func inside(_ q: CanvasPoint) -> Bool { q.x >= 0 && q.y >= 0 && q.x <= W && q.y <= H }
        // Drop elements wholly outside the frame.
        let b = quad.bounds
        guard b.maxX > 0, b.maxY > 0, b.minX < W, b.minY < H,
              quad.points.contains(where: inside) || inside(quad.centroid) || cells.contains(where: { inside($0.centroid) })
        else { return nil }
        let lineQuad = LineQuad(
            topLeft: Point(x: quad.topLeft.x, y: quad.topLeft.y), topRight: Point(x: quad.topRight.x, y: quad.topRight.y),
            bottomRight: Point(x: quad.bottomRight.x, y: quad.bottomRight.y), bottomLeft: Point(x: quad.bottomLeft.x, y: quad.bottomLeft.y))
        let h = lineQuad.digitHeight
        var readable = cells.allSatisfy { $0.points.allSatisfy(inside) } && quad.points.allSatisfy(inside)
        if let glare, cells.contains(where: glare.hides) { readable = false }
        if h < p.minimumReadableDigitHeight { readable = false }
        if element.strokeWidth * unitScale < p.minimumStrokeOverBlur * blur { readable = false }
        let polarity: LinePolarity = binarized || element.ink.luma > element.background.luma ? .lightOnDark : .darkOnLight
        return TrainingLine(
            role: element.role, field: element.field?.rawValue, text: element.text, readable: readable, quad: lineQuad,
            digitHeight: h, polarity: polarity)
    }
}
