import Foundation
import VitalSnapImaging
import VitalSnapInference

/// The trained line locator: a small fully convolutional network looks at the whole frame, brought to a long
/// side of `longSide` pixels (the one its file says it was trained at), and marks every cell of
/// `DetectorConvention.stride` pixels that lies in the core of a value line or of an auxiliary line (clock, date,
/// memory number), with the line's digit height and reading direction. Each connected group of marked cells is
/// one line.
///
/// Lines come back in any orientation (a photo turned by 90 or 180 degrees gives lines reading down or right to
/// left), with their role. The conventions are those of `Training/detector_data.py`.
///
/// A display that fills little of the frame gives the network digits a few cells tall, and it misses some
/// of its lines (the third value of a blood pressure monitor held at arm's length). So where the lines found
/// lie in a small part of the frame, the network looks again at that part alone, brought to its input size:
/// a second run over the display at a scale where its digits are large (on 300 generated validation scenes,
/// 75% of the value lines found in one run, 87% with the second: `Training/infer.py`'s `detect` does the same).
public struct ModelLineLocator: LineLocator {
    public struct Configuration: Sendable {
        /// Fewer marked cells than this are a speck, not a line.
        public var minimumCells = 2
        /// How pieces of one line that the cells left apart are joined.
        public var joiner = LinePieceJoiner()
        /// How rows stacked across the reading direction, whose cells touch, are cut apart.
        var splitter = StackedLineSplitter()
        /// The region looked at again reaches this many digit heights (of the tallest line found) beyond the
        /// lines found (chosen on generated validation scenes: margins of 0.5 and 2.5 found fewer value lines
        /// than 1.0, the display cut off or seen less large).
        public var zoomMargin = 1.0
        /// ...and is looked at again only when it is at most this share of the frame's area (else the first
        /// run already saw the display about as large as a second would).
        public var zoomMaximumArea = 0.5
        /// ...and at least this many working pixels on each side.
        public var zoomMinimumSide = 16
        public init() {}

        /// The part of the frame holding `lines` with `zoomMargin` around them, when it is small enough to be
        /// worth a second look (nil: none).
        public func zoomRegion(_ lines: [TextLine], width: Int, height: Int) -> PixelRect? {
            guard let region = PixelRect(around: lines, margin: zoomMargin, width: width, height: height) else { return nil }
            guard region.width >= zoomMinimumSide, region.height >= zoomMinimumSide,
                  Double(region.area) <= zoomMaximumArea * Double(width * height)
            else { return nil }
            return region
        }
    }

    public var configuration: Configuration
    private var network: Network
    /// The long side of the network's input (`ReaderModels.detectorLongSide`).
    public let longSide: Int
    private var resized = GrayImage(width: 0, height: 0)
    private var scratch = GrayImage(width: 0, height: 0)
    private var zoomed = GrayImage(width: 0, height: 0)
    private var input = FeatureMap()
    private var cellClass: [UInt8] = []
    private var cellLabel: [Int32] = []
    private var stack: [Int32] = []
    private var members: [Int32] = []
    private var bandCounts: [Int32] = []
    private var partStarts: [Int] = []
    private var memberOrder = StableCellSort()
    /// The lines of the whole frame and of the second look (returned, so the caller must let go of them
    /// before the next frame for their storage to be reused).
    private var found: [TextLine] = []
    private var closer: [TextLine] = []

    public init(network: Network, longSide: Int = DetectorConvention.longSide, configuration: Configuration = .init()) {
        self.network = network
        self.longSide = longSide
        self.configuration = configuration
    }

    public mutating func locate(in frame: WorkingFrame) throws(ReaderStageError) -> [TextLine] {
        let pyramid = frame.pyramid
        guard let working = pyramid.levels.first, !working.isEmpty else { return [] }
        // The smallest level still at least the detector's size: resizing from it averages the same pixels.
        let (inWidth, inHeight) = DetectorConvention.inputSize(width: working.width, height: working.height, longSide: longSide)
        var level = 0
        while level + 1 < pyramid.levels.count,
              pyramid.levels[level + 1].width >= inWidth, pyramid.levels[level + 1].height >= inHeight {
            level += 1
        }
        pyramid.levels[level].resize(into: &resized, width: inWidth, height: inHeight, scratch: &scratch)
        // The lists are taken out of the locator while it works on them, and put back.
        var lines: [TextLine] = []
        swap(&lines, &found)
        try detect(scaleX: Double(working.width) / Double(inWidth), scaleY: Double(working.height) / Double(inHeight), into: &lines)
        if let region = configuration.zoomRegion(lines, width: working.width, height: working.height) {
            working.crop(region, into: &zoomed)
            let (w, h) = DetectorConvention.inputSize(width: region.width, height: region.height, longSide: longSide)
            zoomed.resize(into: &resized, width: w, height: h, scratch: &scratch)
            var closer: [TextLine] = []
            swap(&closer, &self.closer)
            try detect(scaleX: Double(region.width) / Double(w), scaleY: Double(region.height) / Double(h), into: &closer)
            if !closer.isEmpty {
                for i in closer.indices {
                    closer[i].centerX += Double(region.x)
                    closer[i].centerY += Double(region.y)
                }
                swap(&lines, &closer)
            }
            swap(&closer, &self.closer)
        }
        lines.sort { $0.digitHeight > $1.digitHeight }
        found = lines
        return lines
    }

    /// The network run on `resized`, its lines in working pixels (before any offset of a zoomed region), into
    /// `lines` (emptied first).
    private mutating func detect(scaleX: Double, scaleY: Double, into lines: inout [TextLine]) throws(ReaderStageError) {
        lines.removeAll(keepingCapacity: true)
        DetectorConvention.standardise(resized, into: &input)
        do {
            try network.run(input)
        } catch {
            throw ReaderStageError(stage: "the trained line detector", reason: String(describing: error))
        }
        network.withOutput { output in
            decode(output, scaleX: scaleX, scaleY: scaleY, into: &lines)
        }
        configuration.joiner.join(&lines)
    }

    /// Lines from the network's output: per cell the class with the highest logit, 8-connected groups of value
    /// or auxiliary cells, a group of stacked rows cut into its rows, and each line's geometry from its cells'
    /// predicted height and direction.
    private mutating func decode(_ output: FeatureMap, scaleX: Double, scaleY: Double, into lines: inout [TextLine]) {
        let gw = output.width, gh = output.height, channels = output.channels
        guard channels >= DetectorConvention.outputChannels, gw > 0, gh > 0 else { return }
        let count = gw * gh
        // Grown only: the two looks of a frame have grids of different sizes.
        if cellClass.count < count {
            cellClass = [UInt8](repeating: 0, count: count)
            cellLabel = [Int32](repeating: 0, count: count)
        }
        output.values.withUnsafeBufferPointer { v in
            for i in 0..<count {
                let o = i * channels
                var best = 0
                for k in 1..<DetectorConvention.classCount where v[o + k] > v[o + best] { best = k }
                cellClass[i] = UInt8(best)
                cellLabel[i] = 0
            }
        }
        var next: Int32 = 0
        let stride = Double(DetectorConvention.stride)
        for start in 0..<count {
            let cls = cellClass[start]
            guard cls == DetectorConvention.valueClass || cls == DetectorConvention.auxiliaryClass, cellLabel[start] == 0 else { continue }
            next += 1
            members.removeAll(keepingCapacity: true)
            stack.removeAll(keepingCapacity: true)
            stack.append(Int32(start))
            cellLabel[start] = next
            while let cell = stack.popLast() {
                members.append(cell)
                let x = Int(cell) % gw, y = Int(cell) / gw
                for dy in -1...1 {
                    for dx in -1...1 where dx != 0 || dy != 0 {
                        let nx = x + dx, ny = y + dy
                        guard nx >= 0, ny >= 0, nx < gw, ny < gh else { continue }
                        let n = ny * gw + nx
                        if cellLabel[n] == 0 && cellClass[n] == cls {
                            cellLabel[n] = next
                            stack.append(Int32(n))
                        }
                    }
                }
            }
            guard members.count >= configuration.minimumCells else { continue }
            let role: LineRole = cls == DetectorConvention.valueClass ? .value : .auxiliary
            let group = geometry(output, members[...])
            // Rows stacked across the reading direction whose cells touch are cut apart (StackedLineSplitter).
            var vMin = Double.infinity, vMax = -Double.infinity
            for cell in members {
                let v = Self.across(cell, gw, group.ex, group.ey)
                vMin = min(vMin, v)
                vMax = max(vMax, v)
            }
            let bands = Int(((vMax - vMin) / stride).rounded()) + 1
            guard configuration.splitter.mayHoldStackedLines(bands: bands, bandsPerDigitHeight: group.height / stride) else {
                lines.append(line(group, output, members[...], role: role, scaleX: scaleX, scaleY: scaleY))
                continue
            }
            // The cells in order across, counted per band; a part is then the run of cells of its bands.
            let (ex, ey) = (group.ex, group.ey)
            memberOrder.sort(&members) { Self.across($0, gw, ex, ey) }
            bandCounts.removeAll(keepingCapacity: true)
            bandCounts.append(contentsOf: repeatElement(0, count: bands))
            for cell in members {
                bandCounts[Int(((Self.across(cell, gw, ex, ey) - vMin) / stride).rounded())] += 1
            }
            bandCounts.withUnsafeBufferPointer {
                configuration.splitter.split(counts: $0, bandsPerDigitHeight: group.height / stride, into: &partStarts)
            }
            var first = 0, firstBand = 0
            for k in 0...partStarts.count {
                let endBand = k < partStarts.count ? partStarts[k] : bands
                var end = first
                for b in firstBand..<endBand { end += Int(bandCounts[b]) }
                if end - first >= configuration.minimumCells {
                    let part = partStarts.isEmpty ? group : geometry(output, members[first..<end])
                    lines.append(line(part, output, members[first..<end], role: role, scaleX: scaleX, scaleY: scaleY))
                }
                (first, firstBand) = (end, endBand)
            }
        }
    }

    /// A group's mean predicted reading direction and digit height (detector-input pixels).
    private func geometry(_ output: FeatureMap, _ cells: ArraySlice<Int32>) -> (ex: Double, ey: Double, height: Double) {
        var cosSum: Double = 0, sinSum: Double = 0, logHeight: Double = 0
        let channels = output.channels
        output.values.withUnsafeBufferPointer { v in
            for cell in cells {
                let o = Int(cell) * channels
                logHeight += Double(v[o + 4])
                cosSum += Double(v[o + 5])
                sinSum += Double(v[o + 6])
            }
        }
        let norm = (cosSum * cosSum + sinSum * sinSum).squareRoot()
        let (ex, ey) = norm > 1e-9 ? (cosSum / norm, sinSum / norm) : (1, 0)
        return (ex, ey, exp(logHeight / Double(max(1, cells.count))))
    }

    /// A cell's centre in detector-input pixels.
    private static func centre(_ cell: Int32, _ gw: Int) -> (x: Double, y: Double) {
        let stride = Double(DetectorConvention.stride)
        return (Double(Int(cell) % gw) * stride + stride / 2, Double(Int(cell) / gw) * stride + stride / 2)
    }

    /// A cell's position across a reading direction (ex, ey), in detector-input pixels.
    private static func across(_ cell: Int32, _ gw: Int, _ ex: Double, _ ey: Double) -> Double {
        let p = centre(cell, gw)
        return -p.x * ey + p.y * ex
    }

    /// The line of a group of cells: its geometry's direction and height, its cells' extent along and across.
    private func line(_ g: (ex: Double, ey: Double, height: Double), _ output: FeatureMap, _ cells: ArraySlice<Int32>,
                      role: LineRole, scaleX: Double, scaleY: Double) -> TextLine {
        let gw = output.width
        let stride = Double(DetectorConvention.stride)
        var uMin = Double.infinity, uMax = -Double.infinity, vSum: Double = 0
        for cell in cells {
            let p = Self.centre(cell, gw)
            let u = p.x * g.ex + p.y * g.ey
            uMin = min(uMin, u)
            uMax = max(uMax, u)
            vSum += -p.x * g.ey + p.y * g.ex
        }
        let length = uMax - uMin + stride + 2 * DetectorConvention.coreEndInset * g.height
        let uMid = (uMin + uMax) / 2, vMid = vSum / Double(cells.count)
        let centre = (x: uMid * g.ex - vMid * g.ey, y: uMid * g.ey + vMid * g.ex)
        // The quad in detector-input pixels, then each corner to working pixels (the axes scale apart).
        let quad = LineQuad(center: Point(x: centre.x, y: centre.y), angle: atan2(g.ey, g.ex), length: length,
                            digitHeight: g.height)
            .map { Point(x: $0.x * scaleX, y: $0.y * scaleY) }
        let c = quad.center
        return TextLine(
            candidates: [], polarity: .dark, centerX: c.x, centerY: c.y, angle: quad.angle, length: quad.length,
            digitHeight: quad.digitHeight, candidatesAreCharacters: false, role: role)
    }
}
