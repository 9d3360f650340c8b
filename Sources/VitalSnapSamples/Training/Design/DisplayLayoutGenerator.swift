import VitalSnapOCR

/// What a random display shows and where: a tree of lines, legends and icons for one kind of device, plus
/// the legends printed on the body below the window (a fuel pump's `LITRES`).
struct DisplayLayout: Sendable {
    var root: LayoutBox
    var bodyLegends: [LabelSpec]
}

/// Builds random display layouts, far more varied than the six sample designs: one big value (glucose,
/// thermometer, scale, meters), three stacked values with legends (blood pressure), two values stacked or
/// side by side (oximeter), small clock, date and memory lines above, below or beside the value, units
/// beside or under it, icons, words instead of values, decimals, a smaller last digit, leading zeros.
struct DisplayLayoutGenerator {
    var random: SampleRandom
    let p: TrainingSceneParameters
    let look: DisplayLook
    /// The font of the main values and the (bolder) font of small lines.
    let font: LineFont
    let smallFont: LineFont
    /// Cell pitch over the digit height, and the main digit height (device units).
    let pitch: Double
    let h: Double
    /// Screens with one colour per value draw them from this list in order.
    var valueColors: [RGBColor]
    /// Printed legend colour inside the window.
    let legendColor: RGBColor
    let letterI: LetterIStyle

    init(random: SampleRandom, parameters: TrainingSceneParameters, look: DisplayLook) {
        var r = random
        p = parameters
        self.look = look
        h = parameters.mainDigitHeight
        let screen = look.kind == .oled || look.kind == .colorScreen
        let usesFont = r.chance(screen ? parameters.fontDigitsChance : look.kind == .led ? parameters.ledDotMatrixChance : 0)
        if usesFont && (!screen || r.chance(parameters.dotMatrixChance)) {
            let fill = r.uniform(0.7...0.95), round = r.chance(0.5)
            font = .dotMatrix(dotFill: fill, round: round)
            smallFont = font
            pitch = 6.0 / 7
        } else if usesFont {
            let weight = r.uniform(parameters.fontWeight)
            let width = r.uniform(0.45...0.62)
            let slant = r.chance(0.7) ? 0 : r.uniform(0.05...0.15)
            font = .stroke(weight: weight, widthRatio: width, slant: slant)
            smallFont = .stroke(weight: min(0.24, weight * 1.2), widthRatio: width, slant: slant)
            pitch = width + 0.22
        } else {
            let shape: SegmentShape = look.kind == .led && r.chance(0.4) ? .rounded : r.pick(parameters.segmentShapeWeights)
            let thickness = r.uniform(parameters.segmentThickness)
            let style = SegmentStyle(
                thickness: thickness, gap: r.uniform(parameters.segmentGap),
                slant: r.chance(parameters.uprightChance) ? 0 : r.uniform(parameters.slant),
                ends: shape.ends, widthRatio: r.uniform(parameters.glyphWidthRatio))
            var small = style
            small.thickness = min(0.22, thickness * r.uniform(1...1.35))
            font = .sevenSegment(style, shape)
            smallFont = .sevenSegment(small, shape)
            // Room for decimal points and colons between cells.
            pitch = style.widthRatio + max(r.uniform(parameters.cellSpacing), 1.6 * thickness)
        }
        var colors = [look.ink]
        if look.kind == .oled || look.kind == .colorScreen {
            var pool = DisplayPalette.screenInks.filter { $0 != look.ink }
            while !pool.isEmpty {
                let color = pool.remove(at: r.int(0...(pool.count - 1)))
                colors.append(color.legible(on: look.background, ratio: parameters.minimumValueInkContrast))
            }
        }
        valueColors = colors
        let printedLegends = look.kind == .reflectiveLCD && r.chance(0.25)
        legendColor = printedLegends
            ? r.pick([RGBColor(40, 70, 160), RGBColor(170, 40, 40), RGBColor(50, 50, 50)])
            : look.ink
        letterI = r.chance(0.5) ? .likeOne : .left
        self.random = r
    }

    // MARK: Building blocks

    func line(
        _ role: SceneTextRole, _ field: FieldName?, _ text: String, cells: Int, height: Double, color: RGBColor,
        small: Bool = false, points: Bool = false, colon: Bool = false, smallLastDigit: Double? = nil
    ) -> LayoutBox {
        .line(TextLineSpec(
            role: role, field: field, text: text, font: small ? smallFont : font, digitHeight: height,
            cells: max(cells, ReadingTexts.cellsNeeded(text)), pitch: pitch, smallLastDigit: smallLastDigit,
            showsPoints: points, showsColon: colon, color: color, letterI: letterI))
    }

    mutating func legend(_ text: String, size: Double? = nil, color: RGBColor? = nil) -> LayoutBox {
        let s = size ?? h * random.uniform(p.legendScale)
        let plate: RGBColor? = random.chance(p.legendPlateChance) ? (color ?? legendColor) : nil
        return .label(LabelSpec(
            text: text, size: s, color: plate == nil ? (color ?? legendColor) : look.background, weight: random.uniform(0.1...0.17),
            plate: plate))
    }

    mutating func icon(_ kind: IconKind, size: Double? = nil, color: RGBColor? = nil) -> LayoutBox {
        let s = size ?? h * random.uniform(0.22...0.4)
        let aspect: Double = switch kind {
        case .battery: random.uniform(1.6...2.2)
        case .bars: 0.35
        case .signal: 1.3
        default: 1
        }
        return .icon(IconSpec(kind: kind, width: s * aspect, height: s, color: color ?? legendColor, level: random.uniform(0.2...1)))
    }

    mutating func gap(_ scale: ClosedRange<Double> = 0.12...0.4) -> Double { h * random.uniform(scale) }

    mutating func alignment() -> LayoutBox.Alignment { random.pick([.start, .center, .end]) }

    /// A value's text, or a word in its place.
    mutating func valueText(_ quantity: ReadingTexts.Quantity, allowWord: Bool = true) -> String {
        if allowWord && random.chance(p.wordChance) { return random.pick(ReadingTexts.words) }
        return ReadingTexts.value(quantity, random: &random)
    }

    /// Small lines: clock (with AM/PM sometimes), date, memory (with its M / MEM legend), each with its chance.
    mutating func auxiliaryLines(scale: Double? = nil) -> [LayoutBox] {
        let ah = h * (scale ?? random.uniform(p.auxiliaryScale))
        var items: [LayoutBox] = []
        if random.chance(p.dateChance) {
            items.append(line(.date, nil, ReadingTexts.date(random: &random), cells: 4, height: ah, color: look.ink, small: true))
        }
        if random.chance(p.memoryChance) {
            let m = line(.memory, nil, ReadingTexts.memory(random: &random), cells: random.int(2...3), height: ah, color: look.ink, small: true)
            items.append(.row([legend(random.pick(["M", "MEM", "No", "MEMORY"]), size: ah * 0.5), m], gap: ah * 0.2, align: .end))
        }
        if random.chance(p.clockChance) {
            var clock = line(.clock, nil, ReadingTexts.clock(random: &random), cells: 4, height: ah, color: look.ink, small: true, colon: true)
            if random.chance(0.3) { clock = .row([legend(random.pick(["AM", "PM"]), size: ah * 0.45), clock], gap: ah * 0.2, align: .start) }
            items.append(clock)
        }
        return items
    }

    /// `value` with its unit beside (bottom or top aligned), under it, or not at all.
    mutating func withUnit(_ value: LayoutBox, unit: String?, size: Double? = nil, color: RGBColor? = nil) -> LayoutBox {
        guard let unit else { return value }
        let label = legend(unit, size: size, color: color)
        switch random.int(0...5) {
        case 0, 1: return .row([value, label], gap: gap(0.08...0.3), align: .end)
        case 2, 3: return .row([value, label], gap: gap(0.08...0.3), align: .start)
        case 4: return .column([value, label], gap: gap(0.04...0.15), align: .end)
        default: return .row([label, value], gap: gap(0.08...0.3), align: .start)
        }
    }

    /// Adds the small lines around `main`: above, below, or in a column beside it.
    mutating func surround(_ main: LayoutBox, with aux: [LayoutBox], icons: [LayoutBox]) -> LayoutBox {
        var top = aux
        if !icons.isEmpty && random.chance(0.5) { top = icons + top }
        let sideIcons = top.count == aux.count && !icons.isEmpty ? icons : []
        var core = main
        if !sideIcons.isEmpty {
            let iconColumn = LayoutBox.column(sideIcons, gap: gap(0.1...0.25), align: .center)
            core = random.chance(0.5) ? .row([iconColumn, main], gap: gap(), align: alignment()) : .row([main, iconColumn], gap: gap(), align: alignment())
        }
        guard !top.isEmpty else { return core }
        switch random.int(0...3) {
        case 0: return .column([.row(top, gap: gap(0.3...0.8), align: .end), core], gap: gap(0.12...0.35), align: alignment())
        case 1: return .column([core, .row(top, gap: gap(0.3...0.8), align: .end)], gap: gap(0.12...0.35), align: alignment())
        case 2: return .row([core, .column(top, gap: gap(0.1...0.3), align: .end)], gap: gap(0.2...0.5), align: alignment())
        default: return .row([.column(top, gap: gap(0.1...0.3), align: .start), core], gap: gap(0.2...0.5), align: alignment())
        }
    }

    // MARK: Devices

    mutating func layout(for program: DeviceProgram) -> DisplayLayout {
        switch program {
        case .glucose: glucose()
        case .bloodPressure: bloodPressure()
        case .thermometer: single(.temperature, random.chance(0.75) ? (.temperatureC, "°C") : (.temperatureF, "°F"), cells: 3...4, icons: [.battery, .person])
        case .scale: single(.weight, random.chance(0.75) ? (.weightKg, "kg") : (.weightLb, "lb"), cells: 3...4, icons: [.battery, .person])
        case .oximeter: oximeter()
        case .electricityMeter: electricityMeter()
        case .fuelPump: fuelPump()
        case .panelMeter: panelMeter()
        case .multimeter: multimeter()
        }
    }

    mutating func glucose() -> DisplayLayout {
        let mmol = random.chance(0.3)
        let text = valueText(mmol ? .glucoseMmol : .glucoseMgdl)
        let value = line(.value, .bloodGlucose, text, cells: 3, height: h, color: valueColors[0], points: mmol)
        let main = withUnit(value, unit: mmol ? "mmol/L" : "mg/dL", size: h * random.uniform(0.16...0.28))
        var icons: [LayoutBox] = []
        for kind in [IconKind.drop, .battery, .bell] where random.chance(0.35) { icons.append(icon(kind)) }
        return DisplayLayout(root: surround(main, with: auxiliaryLines(), icons: icons), bodyLegends: [])
    }

    mutating func single(
        _ field: FieldName, _ quantity: (ReadingTexts.Quantity, String), cells: ClosedRange<Int>, icons kinds: [IconKind]
    ) -> DisplayLayout {
        let text = valueText(quantity.0)
        let value = line(.value, field, text, cells: random.int(cells), height: h, color: valueColors[0], points: true)
        let main = withUnit(value, unit: quantity.1, size: h * random.uniform(0.2...0.4))
        var icons: [LayoutBox] = []
        for kind in kinds where random.chance(0.35) { icons.append(icon(kind)) }
        let aux = random.chance(0.6) ? [] : auxiliaryLines()
        return DisplayLayout(root: surround(main, with: aux, icons: icons), bodyLegends: [])
    }

    mutating func bloodPressure() -> DisplayLayout {
        let word = random.chance(p.wordChance) ? random.pick(ReadingTexts.words) : nil
        var systolic = ReadingTexts.value(.systolic, random: &random)
        var diastolic = ReadingTexts.value(.diastolic, random: &random)
        let pulse = ReadingTexts.value(.pulse, random: &random)
        if let s = Int(systolic), let d = Int(diastolic), d >= s - 15 { diastolic = String(max(40, s - 30)) }
        if let word { systolic = word }
        let diaScale = random.uniform(0.8...1.0), pulseScale = random.uniform(0.45...0.8)
        let legendSize = h * random.uniform(0.14...0.24)
        let legendsLeft = random.chance(0.35)
        let unitRow = random.int(0...2)  // which row carries mmHg
        let names = random.pick([("SYS", "DIA", "PUL"), ("SYS", "DIA", "PULSE"), ("SYS.", "DIA.", "/min"), ("SYS", "DIA", "PR")])
        let rowsSpec: [(FieldName, String, Double, String)] = [
            (.systolic, systolic, 1, names.0), (.diastolic, word == nil ? diastolic : "", diaScale, names.1),
            (.pulse, word == nil ? pulse : "", pulseScale, names.2),
        ]
        var rows: [LayoutBox] = []
        for (i, (field, text, scale, name)) in rowsSpec.enumerated() {
            let color = valueColors[i % valueColors.count]
            let value = line(.value, field, text, cells: 3, height: h * scale, color: color)
            var legends: [LayoutBox] = [legend(name, size: legendSize, color: look.kind == .colorScreen || look.kind == .oled ? color : nil)]
            if i == unitRow { legends.append(legend(random.chance(0.85) ? "mmHg" : "kPa", size: legendSize * 0.85)) }
            if field == .pulse && random.chance(0.4) { legends.append(icon(.heart, size: legendSize * 1.3)) }
            let column = LayoutBox.column(legends, gap: legendSize * 0.4, align: legendsLeft ? .start : .end)
            rows.append(legendsLeft
                ? .row([column, value], gap: gap(0.1...0.35), align: .start)
                : .row([value, column], gap: gap(0.1...0.35), align: random.chance(0.5) ? .start : .center))
        }
        var body: LayoutBox
        if random.chance(0.2) {
            body = .column([.row([rows[0], rows[1]], gap: gap(0.4...0.9), align: .end), rows[2]], gap: gap(0.15...0.4), align: .end)
        } else if random.chance(p.ruleChance) {
            let rule: LayoutBox = .rule(length: LayoutBox.column(rows, gap: 0, align: .end).size.width, thickness: h * 0.03, color: legendColor)
            body = .column([rows[0], rule, rows[1], rule, rows[2]], gap: gap(0.06...0.16), align: .end)
        } else {
            body = .column(rows, gap: gap(0.08...0.35), align: .end)
        }
        let aux = random.chance(0.45) ? auxiliaryLines(scale: random.uniform(0.22...0.38)) : []
        if !aux.isEmpty {
            body = random.chance(0.75)
                ? .column([.row(aux, gap: gap(0.3...0.8), align: .end), body], gap: gap(0.1...0.3), align: .end)
                : .column([body, .row(aux, gap: gap(0.3...0.8), align: .end)], gap: gap(0.1...0.3), align: .end)
        }
        if random.chance(0.4) { body = .row([.column([icon(.battery), icon(.person)], gap: h * 0.3, align: .center), body], gap: gap(), align: .end) }
        return DisplayLayout(root: body, bodyLegends: [])
    }

    mutating func oximeter() -> DisplayLayout {
        let spo2 = valueText(.spo2)
        let pulse = ReadingTexts.value(.pulse, random: &random)
        let spo2Color = valueColors[0], pulseColor = valueColors[1 % valueColors.count]
        let scale = random.uniform(0.65...1.0)
        let a = line(.value, .spo2, spo2, cells: random.int(2...3), height: h, color: spo2Color)
        let b = line(.value, .pulse, spo2.first?.isNumber == false ? "" : pulse, cells: 3, height: h * scale, color: pulseColor)
        let legendSize = h * random.uniform(0.16...0.28)
        let la = legend(random.pick(["%SpO2", "SpO2", "SpO2%", "%"]), size: legendSize, color: spo2Color)
        let lb = legend(random.pick(["PRbpm", "bpm", "PR", "PR bpm", "/min"]), size: legendSize, color: pulseColor)
        func block(_ value: LayoutBox, _ label: LayoutBox, _ style: Int) -> LayoutBox {
            switch style {
            case 0: .column([label, value], gap: legendSize * 0.3, align: .start)
            case 1: .row([value, label], gap: legendSize * 0.4, align: .start)
            default: .row([label, value], gap: legendSize * 0.4, align: .start)
            }
        }
        let style = random.int(0...2)
        var body: LayoutBox = random.chance(0.5)
            ? .row([block(a, la, style), block(b, lb, style)], gap: gap(0.3...0.9), align: .end)
            : .column([block(a, la, style), block(b, lb, style)], gap: gap(0.15...0.4), align: .end)
        if random.chance(0.6) {
            let bars = icon(.bars, size: h * random.uniform(0.8...1.4), color: pulseColor)
            body = .row([body, bars], gap: gap(), align: .end)
        }
        if random.chance(0.4) { body = .column([.row([icon(.battery), icon(.heart, color: pulseColor)], gap: h * 0.3, align: .center), body], gap: gap(0.1...0.25), align: .start) }
        return DisplayLayout(root: body, bodyLegends: [])
    }

    mutating func electricityMeter() -> DisplayLayout {
        let digits = random.int(5...8)
        let small = random.chance(p.smallLastDigitChance)
        let decimals = small ? 1 : (random.chance(0.2) ? 1 : 0)
        let text = ReadingTexts.value(.counter(digits: digits, decimals: decimals), random: &random)
        let value = line(
            .value, .value, text, cells: digits, height: h, color: look.ink, points: decimals > 0,
            smallLastDigit: small ? random.uniform(p.smallLastDigitScale) : nil)
        var main = random.chance(0.7) ? withUnit(value, unit: random.pick(["kWh", "kWh", "kvarh", "kW"]), size: h * random.uniform(0.18...0.3)) : value
        if random.chance(0.4) {
            main = .column([.row([icon(.arrow), icon(.signal), legend(random.pick(["TOTAL", "IMP", "EXP", "L"]))], gap: h * 0.3, align: .center), main], gap: gap(0.1...0.3), align: .start)
        }
        return DisplayLayout(root: main, bodyLegends: [])
    }

    mutating func fuelPump() -> DisplayLayout {
        let decimals = random.chance(0.8) ? 2 : 3
        let cells = random.int(4...6)
        func amount(_ r: inout SampleRandom) -> String { ReadingTexts.value(.general(digits: min(cells, decimals + 3), decimals: decimals, signed: false), random: &r) }
        let first = line(.value, .value, amount(&random), cells: cells, height: h, color: look.ink, points: true)
        let names = ["LITRES", "SALE $", "GALLONS", "PRICE", "TOTAL", "AMOUNT", "VOLUME", "LITERS"]
        let name1 = random.pick(names)
        if random.chance(0.35) {
            let second = line(.value, .value, amount(&random), cells: cells, height: h, color: look.ink, points: true)
            let l1 = legend(name1, size: h * 0.35, color: look.ink), l2 = legend(random.pick(names), size: h * 0.35, color: look.ink)
            return DisplayLayout(root: .column([first, l1, second, l2], gap: gap(0.1...0.3), align: .center), bodyLegends: [])
        }
        // Most pumps print the legend on the panel under the window.
        if random.chance(0.7) {
            return DisplayLayout(root: first, bodyLegends: [LabelSpec(text: name1, size: h * random.uniform(0.35...0.6), color: RGBColor.grey(25), weight: random.uniform(0.14...0.2), plate: nil)])
        }
        return DisplayLayout(root: withUnit(first, unit: name1, size: h * 0.3), bodyLegends: [])
    }

    mutating func panelMeter() -> DisplayLayout {
        let cells = random.int(3...5)
        let text: String
        if random.chance(0.25) {
            // Timers: 03.30, 11.12, with a leading zero.
            text = ReadingTexts.two(random.int(0...59)) + "." + ReadingTexts.two(random.int(0...59))
        } else {
            text = ReadingTexts.value(.general(digits: cells, decimals: random.pick([0, 0, 1, 2]), signed: random.chance(0.1)), random: &random)
        }
        let value = line(.value, .value, text, cells: cells, height: h, color: look.ink, points: true)
        let unit = random.pick(["A", "V", "Hz", "°C", "A RMS", "RPM", "kW", "bar", "%RH"])
        if random.chance(0.6) {
            let legend = LabelSpec(text: unit, size: h * random.uniform(0.3...0.55), color: random.pick([RGBColor(235, 150, 40), RGBColor(230, 230, 230), RGBColor(40, 40, 40)]), weight: 0.14, plate: nil)
            return DisplayLayout(root: value, bodyLegends: [legend])
        }
        return DisplayLayout(root: withUnit(value, unit: unit, size: h * 0.3), bodyLegends: [])
    }

    mutating func multimeter() -> DisplayLayout {
        let text = ReadingTexts.value(.general(digits: 4, decimals: random.int(0...3), signed: true), random: &random)
        let value = line(.value, .value, text, cells: 4 + (text.hasPrefix("-") ? 1 : 0), height: h, color: look.ink, points: true)
        var top: [LayoutBox] = []
        for word in ["DC", "AC", "AUTO", "HOLD", "MAX"] where random.chance(0.3) { top.append(legend(word, size: h * 0.2)) }
        let main = withUnit(value, unit: random.pick(["mV", "V", "mA", "A", "ohm", "Hz", "°C"]), size: h * random.uniform(0.25...0.4))
        let root: LayoutBox = top.isEmpty ? main : .column([.row(top, gap: h * 0.3, align: .center), main], gap: gap(0.1...0.3), align: .start)
        return DisplayLayout(root: root, bodyLegends: [])
    }
}
