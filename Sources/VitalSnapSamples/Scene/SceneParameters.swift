import Foundation
import VitalSnapOCR

/// Everything about one photo except the device and what it shows: framing, pose, surroundings, light,
/// and the camera's flaws. A scene is a pure function of the design, the content and these parameters.
public struct SceneParameters: Sendable, Hashable {
    public enum Framing: String, Sendable, Hashable {
        /// The whole device (or most of it) on a table or in a hand.
        case device
        /// Zoomed in on the display: the window fills most of the frame.
        case displayOnly
    }

    public enum Background: String, Sendable, Hashable, CaseIterable {
        /// Wood grain with plank seams.
        case table
        /// A smooth painted or paper surface with a light falloff.
        case wall
        /// Woven fabric with soft folds.
        case cloth
        /// A surface with other things on it: papers, a pen, a mug, a phone.
        case clutter
    }

    public enum GlarePlacement: String, Sendable, Hashable {
        case none
        /// A reflection on the device body, away from the display.
        case body
        /// On the display window but clear of every digit.
        case besideDigits
        /// Over a digit, hiding its segments: the correct outcome is no reading.
        case overDigits
    }

    /// Camera frame size before `quarterTurns` (the saved image is `height x width` after an odd turn).
    public var width: Int
    public var height: Int
    public var framing: Framing
    /// Display window width over frame width (before the pose distorts it).
    public var displayWidthFraction: Double
    /// Where the display's centre lands, as fractions of the frame size.
    public var displayCenterX: Double
    public var displayCenterY: Double
    /// In-plane rotation, degrees (positive is clockwise on screen).
    public var tiltDegrees: Double
    /// Out-of-plane rotations about the device's horizontal and vertical axes: perspective.
    public var pitchDegrees: Double
    public var yawDegrees: Double

    public var background: Background
    /// Base grey level of the surroundings.
    public var backgroundShade: Double
    /// Seeds the background texture and clutter.
    public var textureSeed: UInt64
    /// Seeds the sensor noise (frames of one clip share the texture but not the noise).
    public var noiseSeed: UInt64
    /// Darkness of the device's soft shadow (0: none).
    public var shadow: Double

    /// Direction (radians) towards the brighter side, and how much brighter it is.
    public var lightAngle: Double
    public var lightStrength: Double
    public var vignette: Double
    /// Overall exposure factor.
    public var exposure: Double

    public var glare: GlarePlacement
    /// Glare radius as a fraction of the display height (for `.overDigits` of the digit height).
    public var glareSize: Double
    public var glareStrength: Double
    /// 0..<1: which of the candidate spots the glare takes.
    public var glareSpot: Double

    /// Camera blur (Gaussian sigma in frame pixels), optics and the camera's denoising together.
    public var blurSigma: Double
    /// Sensor noise (standard deviation in grey levels, before the blur softens it).
    public var noiseSigma: Double
    /// Grey levels between unlit segments and the display background.
    public var ghostLevel: Double
    /// Clockwise quarter turns applied to the finished photo.
    public var quarterTurns: Int

    public init(
        width: Int, height: Int, framing: Framing = .device, displayWidthFraction: Double = 0.4,
        displayCenterX: Double = 0.5, displayCenterY: Double = 0.5, tiltDegrees: Double = 0,
        pitchDegrees: Double = 0, yawDegrees: Double = 0, background: Background = .wall,
        backgroundShade: Double = 120, textureSeed: UInt64 = 1, noiseSeed: UInt64 = 0, shadow: Double = 0.25,
        lightAngle: Double = 0, lightStrength: Double = 0, vignette: Double = 0, exposure: Double = 1,
        glare: GlarePlacement = .none, glareSize: Double = 0.15, glareStrength: Double = 0.8, glareSpot: Double = 0.5,
        blurSigma: Double = 0.6, noiseSigma: Double = 1.5, ghostLevel: Double = 0, quarterTurns: Int = 0
    ) {
        self.width = width
        self.height = height
        self.framing = framing
        self.displayWidthFraction = displayWidthFraction
        self.displayCenterX = displayCenterX
        self.displayCenterY = displayCenterY
        self.tiltDegrees = tiltDegrees
        self.pitchDegrees = pitchDegrees
        self.yawDegrees = yawDegrees
        self.background = background
        self.backgroundShade = backgroundShade
        self.textureSeed = textureSeed
        self.noiseSeed = noiseSeed
        self.shadow = shadow
        self.lightAngle = lightAngle
        self.lightStrength = lightStrength
        self.vignette = vignette
        self.exposure = exposure
        self.glare = glare
        self.glareSize = glareSize
        self.glareStrength = glareStrength
        self.glareSpot = glareSpot
        self.blurSigma = blurSigma
        self.noiseSigma = noiseSigma
        self.ghostLevel = ghostLevel
        self.quarterTurns = quarterTurns
    }

    /// Random parameters for a still photo of `design`, all of them legible: the blur stays below what
    /// would merge the segments of the main digits, and glare never covers a digit unless `glareOverDigits`.
    public static func randomStill(
        for design: MeterDesign, width: Int, height: Int, random: inout SampleRandom,
        glareOverDigits: Bool = false, allowRotation: Bool = true
    ) -> SceneParameters {
        var p = SceneParameters(width: width, height: height)
        p.framing = random.chance(0.15) ? .displayOnly : .device
        switch p.framing {
        case .device:
            p.displayWidthFraction = random.uniform(0.2...0.6)
            p.displayCenterX = random.uniform(0.32...0.68)
            p.displayCenterY = random.uniform(0.32...0.68)
            p.tiltDegrees = random.uniform(-8...8)
            p.pitchDegrees = random.chance(0.3) ? random.uniform(-5...5) : random.uniform(-24...24)
            p.yawDegrees = random.chance(0.3) ? random.uniform(-5...5) : random.uniform(-24...24)
        case .displayOnly:
            p.displayWidthFraction = random.uniform(0.72...0.9)
            p.displayCenterX = random.uniform(0.46...0.54)
            p.displayCenterY = random.uniform(0.46...0.54)
            p.tiltDegrees = random.uniform(-4...4)
            p.pitchDegrees = random.uniform(-8...8)
            p.yawDegrees = random.uniform(-8...8)
        }
        p.background = random.pick(Background.allCases)
        p.backgroundShade = random.uniform(70...185)
        p.textureSeed = random.next()
        p.noiseSeed = random.next()
        p.shadow = random.uniform(0.1...0.45)
        p.lightAngle = random.uniform(0...(2 * Double.pi))
        p.lightStrength = random.uniform(0...0.35)
        p.vignette = random.uniform(0...0.35)
        p.exposure = random.uniform(0.82...1.12)
        if glareOverDigits {
            p.glare = .overDigits
            p.glareSize = random.uniform(0.85...1.1)
            p.glareStrength = 1
        } else {
            let u = random.unit()
            p.glare = u < 0.55 ? .none : u < 0.8 ? .besideDigits : .body
            p.glareSize = random.uniform(0.1...0.2)
            p.glareStrength = random.uniform(0.55...0.9)
        }
        p.glareSpot = random.unit()
        let u = random.unit()
        p.blurSigma = u < 0.4 ? random.uniform(0.6...0.9) : u < 0.85 ? random.uniform(0.9...1.5) : random.uniform(1.5...2.2)
        // Keep the digits legible: blur at most about a third of the main segments' thickness.
        p.blurSigma = min(p.blurSigma, 0.33 * mainSegmentThickness(design, displayWidthPixels: p.displayWidthFraction * Double(width)))
        p.noiseSigma = random.uniform(0.8...2.4)
        p.ghostLevel = random.uniform(design.ghostRange)
        if allowRotation {
            let r = random.unit()
            p.quarterTurns = r < 0.8 ? 0 : r < 0.88 ? 1 : r < 0.94 ? 2 : 3
        }
        return p
    }

    /// Thickness in pixels of the main digits' segments when the display is `displayWidthPixels` wide.
    public static func mainSegmentThickness(_ design: MeterDesign, displayWidthPixels: Double) -> Double {
        let def = design.definition
        let displayHeight = displayWidthPixels / def.displayAspectRatio
        let boxHeight = def.measurementFields.compactMap { $0.box?.height }.min() ?? 0.5
        return design.segmentStyle.thickness * 0.86 * boxHeight * displayHeight
    }

    /// What the notes column says about these parameters.
    public var notes: [String] {
        var n: [String] = []
        n.append("framing=\(framing == .device ? "device" : "display")")
        n.append("display=\(Int((displayWidthFraction * 100).rounded()))%")
        n.append("tilt=\(fmt(tiltDegrees))")
        n.append("perspective=\(fmt(pitchDegrees))/\(fmt(yawDegrees))")
        n.append("bg=\(background.rawValue)")
        n.append("blur=\(fmt(blurSigma))")
        n.append("noise=\(fmt(noiseSigma))")
        n.append("glare=\(glare == .none ? "none" : glare == .body ? "body" : glare == .besideDigits ? "beside-digits" : "over-digits")")
        n.append("glare-over-digits=\(glare == .overDigits ? "yes" : "no")")
        n.append("rotation=\(quarterTurns * 90)")
        n.append("ghost=\(fmt(ghostLevel))")
        return n
    }

    private func fmt(_ v: Double) -> String {
        let r = (v * 10).rounded() / 10
        return r == r.rounded() ? String(Int(r)) : String(format: "%.1f", r)
    }
}
