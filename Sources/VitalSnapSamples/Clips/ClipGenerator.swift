import VitalSnapOCR

/// Frame sequences as a hand-held phone records them: the same device, slightly moving, with fresh sensor
/// noise in every frame. Frames are small (320x240 by default) to keep tests fast and the files small.
public enum ClipGenerator {
    /// The first `unsettledFrames` are blurred (camera still focusing) and a glare patch hides a digit
    /// (expected `?`); then the picture settles and every frame shows the same reading.
    public static func settling(
        _ design: MeterDesign, seed: UInt64, frameCount: Int = 12, unsettledFrames: Int = 4, width: Int = 320, height: Int = 240
    ) -> Clip {
        var random = SampleRandom(seed: seed)
        let content = ReadingGenerator.random(for: design.definition, random: &random)
        let base = baseParameters(design, width: width, height: height, random: &random)
        let thickness = SceneParameters.mainSegmentThickness(design, displayWidthPixels: base.displayWidthFraction * Double(width))
        var frames: [Clip.Frame] = []
        for i in 0..<frameCount {
            var p = jittered(base, random: &random, shake: i < unsettledFrames ? 3 : 1)
            if i < unsettledFrames {
                let t = Double(i) / Double(max(1, unsettledFrames))
                p.blurSigma = thickness * (0.8 - 0.4 * t)
                p.glare = .overDigits
                p.glareSize = random.uniform(0.9...1.1)
                p.glareStrength = 1
                p.glareSpot = random.unit()
            }
            frames.append(frame(design, content: content, parameters: p))
        }
        return Clip(
            name: "settle-\(design.folderName)", design: design, seed: seed,
            summary: "\(unsettledFrames) blurred frames with glare over a digit (no reading), then \(frameCount - unsettledFrames) sharp frames of \(content.reading)",
            frames: frames)
    }

    /// The display switches between two readings every `period` frames (a reader must not merge them).
    public static func alternating(
        _ design: MeterDesign, seed: UInt64, frameCount: Int = 12, period: Int = 3, width: Int = 320, height: Int = 240
    ) -> Clip {
        var random = SampleRandom(seed: seed)
        let first = ReadingGenerator.random(for: design.definition, random: &random)
        var second = ReadingGenerator.random(for: design.definition, random: &random)
        while second.reading == first.reading { second = ReadingGenerator.random(for: design.definition, random: &random) }
        second.texts = second.texts.merging(first.texts.filter { !$0.key.isMeasurement }) { _, clock in clock }
        let base = baseParameters(design, width: width, height: height, random: &random)
        var frames: [Clip.Frame] = []
        for i in 0..<frameCount {
            let p = jittered(base, random: &random, shake: 1)
            frames.append(frame(design, content: (i / max(1, period)) % 2 == 0 ? first : second, parameters: p))
        }
        return Clip(
            name: "alternate-\(design.folderName)", design: design, seed: seed,
            summary: "alternates between \(first.reading) and \(second.reading) every \(period) frames",
            frames: frames)
    }

    /// Every frame shows the same word (`LO`, `HI`, `Err`).
    public static func word(
        _ word: DisplayWord, design: MeterDesign, seed: UInt64, frameCount: Int = 6, width: Int = 320, height: Int = 240
    ) -> Clip {
        var random = SampleRandom(seed: seed)
        let content = ReadingGenerator.word(word, for: design.definition, random: &random)
        let base = baseParameters(design, width: width, height: height, random: &random)
        let frames = (0..<frameCount).map { _ in
            frame(design, content: content, parameters: jittered(base, random: &random, shake: 1))
        }
        return Clip(
            name: "\(word.rawValue.lowercased())-\(design.folderName)", design: design, seed: seed,
            summary: "the display shows \(word.rawValue) in every frame: no value may be reported", frames: frames)
    }

    /// Every frame shows the same value, sharp and glare-free.
    public static func steady(
        _ design: MeterDesign, seed: UInt64, name: String? = nil, summary: String? = nil, frameCount: Int = 6,
        width: Int = 320, height: Int = 240
    ) -> Clip {
        var random = SampleRandom(seed: seed)
        let content = ReadingGenerator.random(for: design.definition, random: &random)
        let base = baseParameters(design, width: width, height: height, random: &random)
        let frames = (0..<frameCount).map { _ in
            frame(design, content: content, parameters: jittered(base, random: &random, shake: 1))
        }
        return Clip(
            name: name ?? "steady-\(design.folderName)", design: design, seed: seed,
            summary: summary ?? "\(content.reading) \(content.unit) in every frame", frames: frames)
    }

    /// A guided capture: display near the centre filling about half the frame, modest pose, no glare.
    static func baseParameters(_ design: MeterDesign, width: Int, height: Int, random: inout SampleRandom) -> SceneParameters {
        var p = SceneParameters.randomStill(for: design, width: width, height: height, random: &random, allowRotation: false)
        p.framing = .device
        p.displayWidthFraction = random.uniform(0.4...0.55)
        p.displayCenterX = random.uniform(0.45...0.55)
        p.displayCenterY = random.uniform(0.42...0.52)
        p.tiltDegrees = random.uniform(-4...4)
        p.pitchDegrees = random.uniform(-10...10)
        p.yawDegrees = random.uniform(-10...10)
        p.glare = .none
        p.blurSigma = random.uniform(0.6...0.9)
        p.noiseSigma = random.uniform(0.8...1.5)
        return p
    }

    /// Hand shake: a little movement between frames, and fresh sensor noise.
    static func jittered(_ base: SceneParameters, random: inout SampleRandom, shake: Double) -> SceneParameters {
        var p = base
        p.displayCenterX += random.uniform(-0.006...0.006) * shake
        p.displayCenterY += random.uniform(-0.006...0.006) * shake
        p.tiltDegrees += random.uniform(-0.5...0.5) * shake
        p.pitchDegrees += random.uniform(-1...1) * shake
        p.yawDegrees += random.uniform(-1...1) * shake
        p.noiseSeed = random.next()
        return p
    }

    static func frame(_ design: MeterDesign, content: DisplayContent, parameters: SceneParameters) -> Clip.Frame {
        let scene = SceneGenerator.render(design, content: content, parameters: parameters)
        return Clip.Frame(
            image: scene.image, shown: content.reading, expectedReading: scene.expectedReading,
            displayQuad: scene.displayQuad, notes: scene.notes)
    }
}
