/// Colours of displays, device bodies and surroundings, and the random looks made from them.
enum DisplayPalette {
    /// Reflective LCD fields: neutral, greenish, yellowish and bluish greys.
    static let reflectiveFields: [RGBColor] = [
        RGBColor(186, 190, 182), RGBColor(170, 182, 164), RGBColor(196, 192, 170), RGBColor(176, 184, 190),
        RGBColor(205, 207, 200), RGBColor(150, 160, 150), RGBColor(190, 196, 176),
    ]
    /// Backlight colours behind dark segments: orange, amber, yellow-green, green, lime, blue, white, ice.
    static let backlights: [RGBColor] = [
        RGBColor(255, 140, 40), RGBColor(255, 185, 70), RGBColor(175, 230, 70), RGBColor(110, 215, 95),
        RGBColor(150, 250, 80), RGBColor(70, 135, 240), RGBColor(232, 238, 248), RGBColor(175, 215, 250),
        RGBColor(250, 110, 60),
    ]
    /// Light segment colours on dark fields (negative LCDs, LEDs, OLEDs).
    static let lightInks: [RGBColor] = [
        RGBColor(255, 45, 30), RGBColor(255, 120, 40), RGBColor(60, 240, 80), RGBColor(70, 140, 255),
        RGBColor(240, 245, 255), RGBColor(255, 215, 40), RGBColor(60, 225, 255), RGBColor(255, 70, 160),
    ]
    /// LED colours, red the most common.
    static let ledInks: [Weighted<RGBColor>] = [
        .init(RGBColor(255, 40, 25), 0.5), .init(RGBColor(60, 255, 70), 0.15), .init(RGBColor(80, 140, 255), 0.12),
        .init(RGBColor(245, 245, 255), 0.1), .init(RGBColor(255, 150, 30), 0.08), .init(RGBColor(255, 225, 50), 0.05),
    ]
    /// OLED and colour-screen text colours (an oximeter's yellow SpO2 and green pulse, ...).
    static let screenInks: [RGBColor] = [
        RGBColor(255, 220, 0), RGBColor(0, 230, 90), RGBColor(0, 215, 255), RGBColor(250, 250, 250),
        RGBColor(70, 150, 255), RGBColor(255, 150, 0), RGBColor(255, 60, 60), RGBColor(230, 90, 255),
    ]
    /// Device bodies: white, greys, black, blue, pink, red, green, yellow, beige, teal, silver.
    static let bodies: [RGBColor] = [
        RGBColor(236, 236, 232), RGBColor(222, 220, 210), RGBColor(196, 198, 200), RGBColor(120, 122, 126),
        RGBColor(62, 64, 68), RGBColor(28, 29, 31), RGBColor(34, 48, 92), RGBColor(40, 96, 190),
        RGBColor(232, 170, 190), RGBColor(178, 34, 38), RGBColor(60, 140, 84), RGBColor(236, 196, 40),
        RGBColor(214, 198, 168), RGBColor(40, 150, 150), RGBColor(176, 180, 186),
    ]

    /// A random look of `kind`.
    static func look(_ kind: DisplayKind, parameters p: TrainingSceneParameters, random: inout SampleRandom) -> DisplayLook {
        var ghost = random.chance(p.invisibleGhostChance) ? 0 : Float(random.uniform(p.ghost))
        let reflection: Float = random.chance(p.glassReflectionChance) ? Float(random.uniform(p.glassReflection)) : 0
        switch kind {
        case .reflectiveLCD:
            let field = jitter(random.pick(reflectiveFields), by: 14, random: &random)
            var ink = RGBColor(Float(random.uniform(18...70)), Float(random.uniform(20...72)), Float(random.uniform(22...80)))
            if random.chance(p.fadedInkChance) { ink = ink.mixed(with: field, Float(random.uniform(p.fadedInk))) }
            return DisplayLook(
                kind: kind, background: field, backgroundEdge: field.scaled(Float(random.uniform(min(max(0.72, p.fieldEdgeShade.lowerBound), p.fieldEdgeShade.upperBound)...p.fieldEdgeShade.upperBound))), ink: ink,
                ghost: ghost, glow: 0, glowSpread: 0, segmentShadow: random.chance(p.segmentShadowChance) ? random.uniform(p.segmentShadow) : 0,
                reflection: reflection)
        case .backlitLCD:
            let light = jitter(random.pick(backlights), by: 18, random: &random).scaled(Float(random.uniform(0.8...1.0)))
            var ink = light.scaled(Float(random.uniform(0.05...0.22)))
            if random.chance(p.fadedInkChance) { ink = ink.mixed(with: light, Float(random.uniform(p.fadedInk))) }
            return DisplayLook(
                kind: kind, background: light, backgroundEdge: light.scaled(Float(random.uniform(p.fieldEdgeShade))), ink: ink,
                ghost: ghost, glow: 0, glowSpread: 0, segmentShadow: 0, reflection: reflection)
        case .negativeLCD:
            let field = RGBColor(Float(random.uniform(8...35)), Float(random.uniform(10...40)), Float(random.uniform(20...80)))
            let ink = random.pick(lightInks).scaled(Float(random.uniform(0.8...1)))
            return DisplayLook(
                kind: kind, background: field, backgroundEdge: field.scaled(0.8), ink: ink, ghost: ghost * 0.5,
                glow: Float(random.uniform(0...0.3)), glowSpread: random.uniform(0.3...0.8), segmentShadow: 0, reflection: reflection)
        case .led:
            let ink = random.pick(ledInks)
            let filter = random.chance(0.4) ? ink.scaled(0.14) : RGBColor.grey(Float(random.uniform(6...28)))
            if ghost > 0 { ghost = Float(random.uniform(0.03...0.14)) }
            return DisplayLook(
                kind: kind, background: filter, backgroundEdge: filter.scaled(0.85), ink: ink, ghost: ghost * 0.6,
                glow: Float(random.uniform(0.25...0.9)), glowSpread: random.uniform(0.5...1.4), segmentShadow: 0, reflection: reflection)
        case .vfd:
            let ink = RGBColor(Float(random.uniform(60...140)), 255, Float(random.uniform(180...235)))
            let field = RGBColor(8, Float(random.uniform(12...24)), Float(random.uniform(14...26)))
            return DisplayLook(
                kind: kind, background: field, backgroundEdge: field.scaled(0.8), ink: ink, ghost: ghost > 0 ? Float(random.uniform(0.02...0.08)) : 0,
                glow: Float(random.uniform(0.3...0.8)), glowSpread: random.uniform(0.5...1.2), segmentShadow: 0, reflection: reflection)
        case .oled:
            let field = RGBColor.grey(Float(random.uniform(0...12)))
            return DisplayLook(
                kind: kind, background: field, backgroundEdge: field, ink: random.pick(screenInks), ghost: 0,
                glow: Float(random.uniform(0...0.35)), glowSpread: random.uniform(0.3...0.9), segmentShadow: 0, reflection: reflection)
        case .colorScreen:
            let dark = random.chance(0.7)
            let field = dark
                ? RGBColor(Float(random.uniform(0...30)), Float(random.uniform(0...35)), Float(random.uniform(0...90)))
                : RGBColor(Float(random.uniform(215...250)), Float(random.uniform(215...250)), Float(random.uniform(215...255)))
            let ink = dark ? random.pick(screenInks) : RGBColor(Float(random.uniform(0...60)), Float(random.uniform(0...80)), Float(random.uniform(40...160)))
            return DisplayLook(
                kind: kind, background: field, backgroundEdge: field.scaled(0.92), ink: ink, ghost: 0,
                glow: dark ? Float(random.uniform(0...0.2)) : 0, glowSpread: 0.5, segmentShadow: 0, reflection: reflection)
        }
    }

    /// Each channel moved by up to `by` levels.
    static func jitter(_ c: RGBColor, by amount: Double, random: inout SampleRandom) -> RGBColor {
        RGBColor(
            min(255, max(0, c.r + Float(random.uniform(-amount...amount)))),
            min(255, max(0, c.g + Float(random.uniform(-amount...amount)))),
            min(255, max(0, c.b + Float(random.uniform(-amount...amount)))))
    }
}
