import Foundation
import VitalSnapImaging
import VitalSnapOCR

/// Composes a photo: surroundings, the device in perspective with its shadow, glare, light, blur, noise and
/// an optional quarter turn.
public enum SceneGenerator {
    /// Renders `content` on `design` under `parameters`. Deterministic: the same inputs give the same pixels.
    public static func render(_ design: MeterDesign, content: DisplayContent, parameters: SceneParameters) -> Scene {
        var p = parameters
        let W = Double(p.width), H = Double(p.height)
        let def = design.definition
        let margin = (p.framing == .device ? 0.04 : 0.015) * min(W, H)

        // Pose: shrink the display (and pull it towards the centre) until the whole window is in the frame.
        let layerProbe = QuadCorners(
            x: def.overlay.display.x, y: def.overlay.display.y / def.overlay.aspectRatio,
            width: def.overlay.display.width, height: def.overlay.display.height / def.overlay.aspectRatio)
        var transform = PlaneHomography.identity
        for _ in 0..<40 {
            transform = pose(p, layerWidth: 1, layerHeight: 1 / def.overlay.aspectRatio, display: layerProbe)
            let b = layerProbe.map(transform.apply).bounds
            if b.minX >= margin && b.minY >= margin && b.maxX <= W - margin && b.maxY <= H - margin { break }
            p.displayWidthFraction *= 0.94
            p.displayCenterX += (0.5 - p.displayCenterX) * 0.25
            p.displayCenterY += (0.5 - p.displayCenterY) * 0.25
        }

        // Render the device at about 1.3x its size in the frame (bilinear sampling then only reduces a little),
        // within a pixel budget for devices much larger than the frame.
        let deviceWidthInFrame = p.displayWidthFraction * W / def.overlay.display.width
        var renderWidth = (deviceWidthInFrame * 1.3).rounded(.up)
        let maxPixels = 3_000_000.0
        renderWidth = min(renderWidth, (maxPixels * def.overlay.aspectRatio).squareRoot())
        let layer = DeviceRenderer.render(design, content: content, width: Int(max(16, renderWidth)), ghostLevel: p.ghostLevel)
        transform = pose(p, layerWidth: Double(layer.image.width), layerHeight: Double(layer.image.height), display: layer.display)

        var random = SampleRandom(seed: p.textureSeed)
        var canvas = BackgroundPainter.paint(p.background, shade: p.backgroundShade, width: p.width, height: p.height, random: &random)

        // Soft shadow, cast away from the light.
        if p.shadow > 0 {
            var shadowMask = FloatCanvas(width: p.width, height: p.height)
            let offset = 0.015 * max(W, H)
            let outline = DeviceRenderer.bodyOutline(
                design.body, width: Double(layer.image.width), height: Double(layer.image.height)
            ).map { transform.apply($0) }
            shadowMask.fill(Shapes.translate(outline, dx: -cos(p.lightAngle) * offset, dy: -sin(p.lightAngle) * offset), value: 1)
            shadowMask.gaussianBlur(sigma: 0.012 * max(W, H))
            canvas.darken(by: shadowMask, amount: Float(p.shadow))
        }

        canvas.composite(layer.image, mask: layer.mask, transform: transform)

        var expected = content.reading
        if let glare = glareSpot(p, layer: layer) {
            let c = transform.apply(glare.center)
            let ex = transform.apply(glare.center + CanvasPoint(glare.radiusX, 0)) - c
            let ey = transform.apply(glare.center + CanvasPoint(0, glare.radiusY)) - c
            canvas.addGlare(
                center: c, radiusX: ex.length, radiusY: ey.length, angle: atan2(ex.y, ex.x),
                strength: glare.strength, core: glare.core)
            if p.glare == .overDigits { expected = "?" }
        } else if p.glare != .none {
            p.glare = .none  // no room for it (noted as none)
        }

        canvas.applyLightGradient(angle: p.lightAngle, strength: p.lightStrength)
        canvas.applyVignette(amount: p.vignette)
        if p.exposure != 1 { canvas.applyGain(Float(p.exposure), offset: 0) }
        // Sensor noise goes in before the blur: the blur then also stands for the camera's own denoising,
        // which leaves soft, correlated grain rather than per-pixel speckle (and keeps the files small).
        var noise = SampleRandom(seed: p.noiseSeed)
        canvas.addGaussianNoise(sigma: p.noiseSigma, random: &noise)
        canvas.gaussianBlur(sigma: p.blurSigma)

        let image = QuarterTurn.rotate(canvas.grayImage(), clockwiseTurns: p.quarterTurns)
        let quad = layer.display.map { QuarterTurn.rotate(transform.apply($0), width: p.width, height: p.height, clockwiseTurns: p.quarterTurns) }
        return Scene(
            image: image, reading: content.reading, expectedReading: expected, displayQuad: quad,
            notes: p.notes, parameters: p)
    }

    /// A random still of `design` showing a random reading (or `word`); everything follows from `seed`.
    /// Legible unless `glareOverDigits`, which hides a digit under glare (expected reading `?`).
    /// With `allowPortrait` some photos come out `height x width` instead.
    public static func randomStill(
        _ design: MeterDesign, seed: UInt64, width: Int = 640, height: Int = 480, glareOverDigits: Bool = false,
        word: DisplayWord? = nil, allowPortrait: Bool = false
    ) -> Scene {
        var random = SampleRandom(seed: seed)
        // A quarter of the photos are taken with the phone upright.
        let portrait = allowPortrait && random.chance(0.25)
        let (w, h) = portrait ? (min(width, height), max(width, height)) : (width, height)
        let content = word.map { ReadingGenerator.word($0, for: design.definition, random: &random) }
            ?? ReadingGenerator.random(for: design.definition, random: &random)
        let parameters = SceneParameters.randomStill(
            for: design, width: w, height: h, random: &random, glareOverDigits: glareOverDigits)
        return render(design, content: content, parameters: parameters)
    }

    static func pose(_ p: SceneParameters, layerWidth: Double, layerHeight: Double, display: QuadCorners) -> PlaneHomography {
        CameraPose.homography(
            layerWidth: layerWidth, layerHeight: layerHeight, display: display,
            displayWidthPixels: p.displayWidthFraction * Double(p.width),
            center: CanvasPoint(p.displayCenterX * Double(p.width), p.displayCenterY * Double(p.height)),
            tiltDegrees: p.tiltDegrees, pitchDegrees: p.pitchDegrees, yawDegrees: p.yawDegrees,
            frameLongSide: Double(max(p.width, p.height)))
    }

    struct GlareSpot {
        var center: CanvasPoint
        var radiusX: Double
        var radiusY: Double
        var strength: Double
        var core: Double
    }

    /// Where the glare goes, in layer coordinates; nil for no glare or when no candidate spot fits.
    static func glareSpot(_ p: SceneParameters, layer: DeviceLayer) -> GlareSpot? {
        let mask = layer.mask
        let d = layer.display.bounds
        let dw = d.maxX - d.minX, dh = d.maxY - d.minY
        switch p.glare {
        case .none:
            return nil
        case .overDigits:
            // Centred on one lit digit, large enough that its flat white core covers the whole digit.
            guard !layer.litDigitCells.isEmpty else { return nil }
            let cell = layer.litDigitCells[min(layer.litDigitCells.count - 1, Int(p.glareSpot * Double(layer.litDigitCells.count)))]
            let cellHeight = cell.topLeft.distance(to: cell.bottomLeft)
            return GlareSpot(
                center: cell.centroid, radiusX: cellHeight * 0.62 * p.glareSize, radiusY: cellHeight * p.glareSize,
                strength: p.glareStrength, core: 0.62)
        case .besideDigits, .body:
            let r = p.glareSize * dh
            let keepOut = layer.fieldBoxes.values.map { $0.bounds }
            var candidates: [CanvasPoint] = []
            if p.glare == .besideDigits {
                for j in 0...8 {
                    for i in 0...12 {
                        let c = CanvasPoint(d.minX + dw * Double(i) / 12, d.minY + dh * Double(j) / 8)
                        // The whole ellipse (and its fade) must stay clear of every field box.
                        let clear = keepOut.allSatisfy { b in
                            c.x + 1.4 * r < b.minX || c.x - 1.4 * r > b.maxX || c.y + r < b.minY || c.y - r > b.maxY
                        }
                        if clear { candidates.append(c) }
                    }
                }
            } else {
                let w = Double(mask.width), h = Double(mask.height)
                for j in 1..<10 {
                    for i in 1..<10 {
                        let c = CanvasPoint(w * Double(i) / 10, h * Double(j) / 10)
                        let onBody = mask[Int(c.x), Int(c.y)] > 0.99
                        let offDisplay = c.x + r < d.minX - r || c.x - r > d.maxX + r || c.y + r < d.minY - r || c.y - r > d.maxY + r
                        if onBody && offDisplay { candidates.append(c) }
                    }
                }
            }
            guard !candidates.isEmpty else { return nil }
            let c = candidates[min(candidates.count - 1, Int(p.glareSpot * Double(candidates.count)))]
            return GlareSpot(center: c, radiusX: r * 1.4, radiusY: r, strength: p.glareStrength, core: 0.3)
        }
    }
}
