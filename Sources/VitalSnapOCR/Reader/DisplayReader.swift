import Foundation
import Logging
import VitalSnapImaging

/// The reader: one photo or camera frame, for one peripheral, to a result. `read` is the whole chain, top to
/// bottom:
///
///     decode ─ working frame ─ locate lines ─ stand upright ─┬─ rectify ─ recognize ─ (cut at a gap) ─ a 1 before it? ─ views ─ place ─┐
///                                                            └──────────────────────────────── each line ───────────────────────────────┘
///     ─ keep the best readings ─ assemble the fields ─ glare ─ result ─ last look at a turned photo ─ an error code upside down?
///     ─ refused: the same again with the second recognizer (taken where it agrees with the first), then on
///       the second locator's lines, a closer look's, the photo tilted, then turned, then the second opinion
///       (a plain numeric display: the crop as one line, then tilted, on `NumericLookTerms`' terms; thresholded,
///       then with its strokes' holes filled, `StrokeLook`), none taken
///       where its values agree with nothing an earlier look read sure as no plausible value (`SureText`)
///     ─ still refused: all of that again with the photo's contrast evened out (`read(image:file:)`)
///     ─ a colour photo still refused: all of that in its brightest channel but the contrast looks, then in its
///       darkest (`read(file:)`, `ChannelLook`)
///     ─ still refused, two values or more, some found and not all (or one in doubt): the part of the photo
///       around the lines found read as a photo of its own, all of the above (`CropLook`)
///
/// A photo of a medical device is located by the stages' photo locator where they have one (`ReaderStages.photoLocator`),
/// chosen once, in the initializer.
///
/// Each stage is a small type with a declared input and output. The replaceable ones are protocols, chosen
/// together in `ReaderStages`: rule-based (`Rules/`) or trained (`Trained/`). `vitalsnap batch`, `eval`,
/// `inspect` and the live reading (`LiveReader`) all read through this one chain. One reader per thread; it
/// keeps every buffer between images, so the frames of a stream are read without allocating once warm.
public struct DisplayReader: Sendable {
    public let configuration: Configuration
    /// The replaceable stages: locator, orienter, rectifier, recognizer, views, last look.
    public var stages: ReaderStages
    /// The peripheral's fields from the lines read.
    public var assembler: ReadingAssembler
    /// What the last orientation read saw.
    public private(set) var trace = ReadTrace()
    /// The last image read at the size the reader worked on (for inspection).
    public var workingImage: GrayImage { frame.working }
    private var frame: WorkingFrame
    private var placement: LinePlacement
    private var selection: LineSelection
    /// Cuts a line in two at a wide gap: only for a peripheral with two values or more (nil otherwise), which a
    /// display may show side by side. A single value's digits may be spaced wide (a meter's drum counter).
    private var gapSplitter: LineGapSplitter?
    private var glareCheck: GlareCheck
    private var turnedErrorCode: TurnedErrorCodeCheck
    private var crop = RectifiedLine()
    private var viewCrop = RectifiedLine()
    private var viewProbabilities: [Double] = []
    /// The readers asked in turn about a photo these stages refuse, each with the warning its reading carries,
    /// whether it is asked after a refusal over glare, and the tilts it reads the photo at in turn ([0]: as it
    /// is): the same stages on the second locator's lines, then on the closer look's, then on the photo tilted by
    /// each of `ReaderStages.tiltedLooks` and turned by each of its `turnedLooks`, then the second opinion (any
    /// of them; an array, since a reader cannot hold a reader otherwise); and whether it is asked in a contrast
    /// look (`ContrastLook.asks`).
    private var secondReaders: [(reader: DisplayReader, warning: String, afterGlare: Bool, tilts: [Double], evenedOut: Bool)] = []
    /// The same stages with the second recognizer (`ReaderStages.secondRecognition`), asked before
    /// `secondReaders` (none or one; an array for the same reason).
    var secondRecognitionReader: [DisplayReader] = []
    /// The clip limits at which a photo refused after every other look is read again equalized
    /// (`ReaderStages.contrastLooks`; empty for a camera's frames; not asked of a plain number's crop), with the
    /// equalizer and the image it writes.
    private var contrastLooks: [Double] = []
    /// The channels a colour photo refused is read again in, in order (`ReaderStages.channelLooks`).
    var channelLooks: [DecodeOptions.Grey] = []
    /// The reader of the part of a photo that `stages.cropLook` gives: these stages with every look but that one
    /// (none or one: photos of a device with two values or more; an array, since a reader cannot hold a reader
    /// otherwise).
    var cropReader: [DisplayReader] = []
    private var leadingOneLook: LeadingOneLook?
    private var equalizer = ContrastEqualizer(clipLimit: 0)
    private var equalized = GrayImage(width: 0, height: 0)
    /// What the stroke looks write (`DisplayReader+StrokeLooks`).
    var strokeBuffers = StrokeLook.Buffers()
    /// On what terms the second recognizer is asked (`readAgainWithSecondRecognizer`, `SecondRecognitionTerms`).
    var secondRecognitionTerms = SecondRecognitionTerms.asItStands
    /// Whether `secondReaders` read a plain numeric display again, taken on `NumericLookTerms`' terms.
    private var readsNumberAgain = false
    /// The texts the looks at the image being read read sure as no plausible value, each with whether that look
    /// read the photo turned (`DisplayReader+SureTexts`).
    var sureTexts: [(text: SureText, turned: Bool)] = []

    let logger = Logger(label: "vitalsnap.ocr")

    public init(peripheral: PeripheralDefinition, unit: String? = nil, reader: ReaderChoice, configuration: Configuration = .init()) {
        self.init(peripheral: peripheral, unit: unit, stages: reader.stages(), configuration: configuration)
    }

    /// A reader with stages of one's own (a new locator or recognizer to try against the bundled ones).
    public init(peripheral: PeripheralDefinition, unit: String? = nil, stages: ReaderStages, configuration: Configuration = .init()) {
        self.configuration = configuration
        var stages = stages
        if configuration.usesPhotoLocator, peripheral.type != .numericDisplay, let photoLocator = stages.photoLocator {
            stages.locator = photoLocator
        }
        stages.photoLocator = nil  // chosen once, here: the readers made below locate as this one does
        self.stages = stages
        assembler = ReadingAssembler(
            peripheral: peripheral, unit: unit, minimumConfidence: stages.minimumConfidence,
            checksPolarity: stages.checksPolarity)
        frame = WorkingFrame(configuration: configuration.frame)
        placement = LinePlacement(configuration: configuration.placement)
        selection = LineSelection(configuration: configuration.selection)
        gapSplitter = peripheral.fields.count > 1 ? LineGapSplitter(configuration: configuration.gapSplit) : nil
        glareCheck = GlareCheck(configuration: configuration.glare)
        turnedErrorCode = TurnedErrorCodeCheck(configuration: configuration.turnedErrorCode, peripheral: peripheral.type)
        leadingOneLook = configuration.usesPhotoLocator && peripheral.type != .numericDisplay ? stages.leadingOneReach.map(LeadingOneLook.init) : nil
        guard configuration.asksSecondOpinion else { return }
        if let recognition = stages.secondRecognition {
            secondRecognitionReader = [
                DisplayReader(peripheral: peripheral, unit: unit, stages: stages.recognizing(with: recognition), configuration: configuration)
            ]
        }
        // The same stages on another locator's lines, nothing asked after them but, where `secondRecognition`
        // gives its terms, the second recognizer.
        func looking(with locator: any LineLocator, secondRecognition: SecondRecognitionTerms? = nil) -> DisplayReader {
            let looking = stages.looking(with: locator, keepingSecondRecognition: secondRecognition != nil)
            var reader = DisplayReader(peripheral: peripheral, unit: unit, stages: looking, configuration: configuration)
            if let secondRecognition { reader.secondRecognitionTerms = secondRecognition }
            return reader
        }
        if configuration.usesPhotoLocator { contrastLooks = stages.contrastLooks }
        // A plain number: the crop read as one line, then tilted, on their terms for it (`NumericLookTerms`).
        guard peripheral.type != .numericDisplay else {
            guard configuration.usesPhotoLocator else { return }
            if let whole = stages.wholeCropLocator {
                // With the second recognizer, asked as for the photo as it stands (unsure digits it reads alike).
                let reader = looking(with: whole, secondRecognition: .asItStands)
                secondReaders.append((reader, "read as one line filling the crop", false, [0], false))
            }
            if !stages.numericTiltedLooks.isEmpty {
                secondReaders.append((looking(with: stages.locator), "read tilted", false, stages.numericTiltedLooks, false))
            }
            readsNumberAgain = !secondReaders.isEmpty || !stages.strokeLooks.isEmpty
            return
        }
        if configuration.usesPhotoLocator { channelLooks = stages.channelLooks }
        if configuration.usesPhotoLocator, peripheral.fields.count > 1, stages.cropLook != nil {
            var cropping = stages
            cropping.cropLook = nil
            cropReader = [
                DisplayReader(peripheral: peripheral, unit: unit, stages: cropping, configuration: configuration)
            ]
        }
        if let second = stages.secondLocator {
            secondReaders.append((looking(with: second), "read from the second detector's lines", true, [0], true))
        }
        // Not after glare: where the first look saw glare over the digits, a closer one read a glucose meter's
        // 103 as 403, a glint beside the 1 read as part of it.
        if configuration.usesPhotoLocator, let closer = stages.closerLocator {
            secondReaders.append((looking(with: closer), "read from a closer look", false, [0], true))
        }
        // Tilted: not after glare either, nor for a camera's frames (which use no photo locator).
        // Then turned (upside down, sideways: the last of the tilts), on the same terms, without the second recognizer.
        if configuration.usesPhotoLocator, !stages.tiltedLooks.isEmpty {
            secondReaders.append((looking(with: stages.locator, secondRecognition: .tilted), "read tilted", false, stages.tiltedLooks, true))
        }
        if configuration.usesPhotoLocator, !stages.turnedLooks.isEmpty {
            let asked = ContrastLook.asks(turned: true, rules: false)
            secondReaders.append((looking(with: stages.locator), "read tilted", false, stages.turnedLooks, asked))
        }
        if stages.secondOpinion == .rules {
            secondReaders.append((
                DisplayReader(peripheral: peripheral, unit: unit, stages: .rules, configuration: configuration),
                "read by the rule-based reader", true, [0], ContrastLook.asks(turned: false, rules: true)))
        }
    }

    /// A reader with the default reader, the trained one (`ReaderChoice.preferred()`), as every command uses.
    public init(peripheral: PeripheralDefinition, unit: String? = nil, configuration: Configuration = .init()) throws(ReaderModelError) {
        self.init(peripheral: peripheral, unit: unit, reader: try ReaderChoice.preferred(), configuration: configuration)
    }

    /// Decodes `file` and reads it. A file that cannot be decoded, or a stage that cannot run, gives a result
    /// with status `error` and the reason.
    public mutating func read(file: String) -> PhotoResult {
        let decoded: DecodedImage
        do {
            decoded = try ImageDecoder.decode(contentsOf: file, options: configuration.decoding)
        } catch {
            logger.debug("\(file): not decoded: \(error)")
            return PhotoResult(file: file, failure: String(describing: error))
        }
        if configuration.cutShortIsError && decoded.isCutShort {
            let warning = decoded.warnings.first { $0.lowercased().contains("premature end") } ?? decoded.warnings.first ?? ""
            return PhotoResult(file: file, failure: "truncated JPEG data (\(warning))")
        }
        var result: PhotoResult
        do {
            let options = configuration.decoding
            result = try readInColour(decoded.image, file: file) { grey in Self.decode(file, options, in: grey) }
            if let cropped = try readCrop(around: result, of: decoded.image, file: file, options: options) {
                result = cropped
            }
        } catch {
            result = PhotoResult(file: file, failure: error.description)
        }
        logger.debug("""
            \(file): \(decoded.originalWidth)x\(decoded.originalHeight) decoded at \(decoded.image.width)x\(decoded.image.height), \
            \(result.reading?.readingString ?? result.reading?.word.map { "word \($0)" } ?? "no reading: \(result.message ?? "")"), \
            display \(result.reading?.recognizedText.replacingOccurrences(of: "\n", with: " | ") ?? "")
            """)
        (result.imageWidth, result.imageHeight) = (decoded.originalWidth, decoded.originalHeight)
        // The decoder's warnings first, then the reader's own (a photo read turned).
        result.warnings = decoded.warnings + result.warnings
        return result
    }

    /// Reads an image: the whole chain, the photo stood upright where the configuration says so; a photo refused
    /// is read again with the second recognizer, from the second locator's lines, from the closer look's, tilted
    /// (`ReaderStages.tiltedLooks`), turned (`turnedLooks`), then by the second opinion, where the stages
    /// have them; still refused, all of that again with its contrast evened out (`contrastLooks`).
    public mutating func read(image: GrayImage, file: String = "") throws(ReaderStageError) -> PhotoResult {
        sureTexts.removeAll(keepingCapacity: true)
        let result = try readWithLooks(image, file: file)
        guard !contrastLooks.isEmpty, ContrastLook.mayAsk(
            after: result, plainNumberCrop: readsNumberAgain && WorkingFrame.isDisplayCrop(image, configuration: configuration.frame)) else { return result }
        let doubted = ContrastLook.doubted(in: result, minimumConfidence: stages.minimumConfidence)
        var numberTerms = NumericLookTerms(after: result, applies: readsNumberAgain)  // a plain number: borne out too
        for clipLimit in contrastLooks {
            equalizer.clipLimit = clipLimit
            equalizer.equalize(image, into: &equalized)
            var second = try readWithLooks(equalized, file: file, evenedOut: true)
            guard ContrastLook.takes(second, doubted: doubted), numberTerms.takes(second), !contradictsSureTexts(second) else { continue }
            second.warnings.append(
                "read with its contrast evened out (clip limit \(clipLimit)): the first reading gave nothing (\(result.message ?? "no reading"))")
            return second
        }
        return result
    }

    /// `image` read as `read(image:file:)` reads it, without the contrast looks; `evenedOut`: in one, with the
    /// second looks it asks (a plain number's: none, read as it stands only, `ContrastLook.mayAsk`).
    mutating func readWithLooks(_ image: GrayImage, file: String, evenedOut: Bool = false) throws(ReaderStageError) -> PhotoResult {
        let asItStandsOnly = evenedOut && readsNumberAgain
        let result = try read(image, file: file, standingUpright: configuration.standsPhotosUpright && !asItStandsOnly).result
        // Where an `E` was seen, only the turned looks, and only where it reads as digits turned over.
        let turnedOnly = !ReaderStages.SecondOpinion.mayAsk(after: result)
        guard result.reading?.readingString == nil, result.reading?.word == nil,
            !turnedOnly || ReaderStages.mayReadTurnedDigits(after: result) else { return result }
        noteSureText(of: result, checkedInViews: checksValuesInViews)
        guard !asItStandsOnly else { return result }  // a plain number's evened-out photo: no second look
        if !turnedOnly, let agreed = try readAgainWithSecondRecognizer(image, file: file, refused: result),
           !contradictsSureTexts(agreed) {
            return agreed
        }
        let (glare, mayTurn) = (result.reading?.refusal?.reason == .glare, ReaderStages.mayReadTurned(after: result))
        var numberTerms = NumericLookTerms(after: result, applies: readsNumberAgain, imageWidth: image.width, imageHeight: image.height)
        for k in secondReaders.indices where (secondReaders[k].afterGlare || !glare) && (secondReaders[k].evenedOut || !evenedOut) {
            for (index, tilt) in secondReaders[k].tilts.enumerated() {
                let turned = stages.turnedLooks.contains(tilt)
                if (turned ? !mayTurn : turnedOnly) || !numberTerms.asks(tiltAt: index, angle: tilt) { continue }
                var second = try secondReaders[k].reader.read(image: tilt == 0 ? image : image.tilted(by: tilt), file: file)
                second.readTilt = tilt
                noteSureText(of: second, checkedInViews: secondReaders[k].reader.checksValuesInViews)
                // Values only where turned (a word turned is another word or digits: `LO`, `07`); none `Refusal.doubts`.
                guard second.reading?.readingString != nil || (second.reading?.word != nil && !turned),
                    !second.givesValue(doubtedBy: result.reading?.refusal), !contradictsSureTexts(second),
                    numberTerms.takes(second) else { continue }
                var warning = secondReaders[k].warning
                if tilt != 0 {
                    let geometry = Tilt(angle: tilt, sourceWidth: image.width, sourceHeight: image.height)
                    second.glare = second.glare.map { $0.tiltedBack(geometry) }
                    let degrees = Int((tilt * 180 / Double.pi).rounded())
                    if !turned {
                        warning += " by \(degrees) degrees"
                    } else {
                        warning = degrees == 180 ? "read upside down" : "read turned by \(degrees) degrees"
                    }
                }
                second.warnings.append("\(warning): the first reading gave nothing (\(result.message ?? "no reading"))")
                return second
            }
        }
        guard readsNumberAgain, !evenedOut else { return result }
        return try readWithStrokesFilled(image, file: file, refused: result) ?? result
    }

    /// The lines of `image` read as it stands (rectified, recognized, checked in their views, the best reading
    /// of each place), most prominent first, in its pixels; nothing assembled.
    public mutating func readLines(_ image: GrayImage) throws(ReaderStageError) -> [RecognizedLine] {
        try findLines(in: image)
        return try readFoundLines()
    }

    mutating func read(_ image: GrayImage, file: String, standingUpright: Bool) throws(ReaderStageError) -> ReadPass {
        // Find the display's lines: the image at working size, the lines located in it.
        let framed = try findLines(in: image)
        // Stand the photo upright: the orienter is shown the lines found. A photo it is sure is turned is read
        // turned back, and only that way.
        var estimate: OrientationEstimate?
        if standingUpright && framed {
            estimate = try stages.orienter?.orientation(of: frame.working, lines: trace.located)
            if let estimate { logger.debug("\(file): orienter: \(estimate)") }
        }
        if let estimate, estimate.turnsThePhoto {
            var pass = try readTurned(image, estimate.uprightingOrientation, file: file)
            let how = estimate.clockwiseTurns == 2 ? "upside down" : "sideways"
            pass.result.warnings.append("read turned: the photo was \(how) (orienter \(String(format: "%.2f", estimate.confidence)))")
            return pass
        }
        // Each line rectified, recognized, read again in other views, placed in the image; the best kept.
        let lines = try readFoundLines()
        // The peripheral's fields, then glare over their digits and where a digit of theirs could hide.
        let assembler = self.assembler; var reading = assembler.assemble(lines)
        let glare = glareCheck.check(image, reading: reading) { assembler.digitMayHide($1, of: $0, in: reading) }
        if glare.coversDigits, case .values = reading.outcome { reading.refuse(Refusal(.glare, "glare covers the digits")) }
        var pass = ReadPass(
            result: PhotoResult(file: file, reading: reading, glare: glare), lines: lines,
            imageSize: (image.width, image.height))
        // The last look at a photo that may be turned.
        guard standingUpright else { return pass }
        let turnCheck = stages.turnCheck
        pass.result = try turnCheck.check(pass, estimate: estimate, assembler: assembler) { turn throws(ReaderStageError) in
            try self.readTurned(image, turn, file: file)
        }
        if framed, let p = stages.orienter?.lastTurnProbabilities { pass.result = turnedErrorCode.check(pass.result, probabilities: p) }
        return pass
    }

    /// The working frame of `image` and the lines located in it (`trace.located`); false for an image too small
    /// to show any.
    @discardableResult
    private mutating func findLines(in image: GrayImage) throws(ReaderStageError) -> Bool {
        // The last image's lines are let go of first: a locator may reuse the storage they share with it.
        trace.located = []
        guard image.width >= configuration.minimumImageSide, image.height >= configuration.minimumImageSide else { return false }
        frame.update(from: image)
        trace.located = try stages.locator.locate(in: frame)
        return true
    }

    /// The located lines read, each: rectify, recognize, cut at a wide gap (two values side by side), views,
    /// place; the best reading of each place kept.
    private mutating func readFoundLines() throws(ReaderStageError) -> [RecognizedLine] {
        selection.reset()
        trace.startLines()
        for line in trace.located {
            if selection.isFull { break }
            if selection.isPiece(line) { trace.log(line, read: nil); continue }
            stages.rectifier.rectify(line, pyramid: frame.pyramid, into: &crop)
            let read = try stages.recognizer.recognize(crop)
            // Two numbers side by side in one line: each side read as a line of its own.
            if let (left, right) = gapSplitter?.split(read, crop: crop, of: line) {
                logger.debug("line \(String(read.characters.map(\.character))) cut in two at a gap")
                try readLine(left)
                try readLine(right)
                continue
            }
            try readLine(line, read: read)
        }
        let (lines, kept) = selection.select()
        if configuration.keepsRectifiedLines { LineSelection.removeAll(from: &trace.rectified, notKept: kept) }
        return lines
    }

    /// One located line read (`read`: what the recognizer read in `crop`, which holds it; nil: rectified and
    /// recognized here), checked in its views, placed and offered to the selection.
    private mutating func readLine(_ line: TextLine, read first: LineTranscript? = nil) throws(ReaderStageError) {
        var read: LineTranscript
        if let first {
            read = first
        } else {
            stages.rectifier.rectify(line, pyramid: frame.pyramid, into: &crop)
            read = try stages.recognizer.recognize(crop)
        }
        if line.role != .auxiliary {
            try leadingOneLook?.look(at: line, read: &read, pyramid: frame.pyramid, rectifier: &stages.rectifier, recognizer: &stages.recognizer)
        }
        if stages.agreement.applies(to: read, of: line) {
            viewProbabilities.removeAll(keepingCapacity: true)
            for view in stages.agreement.views.indices where !stages.agreement.isSettled(read, viewProbabilities: viewProbabilities) {
                stages.rectifier.rectify(stages.agreement.view(view, of: line), pyramid: frame.pyramid, into: &viewCrop)
                viewProbabilities.append(try stages.recognizer.probability(of: read, in: viewCrop, pointsMayDrop: true))
            }
            stages.agreement.judge(&read, viewProbabilities: viewProbabilities)
        }
        trace.log(line, read: read)
        guard let placed = placement.place(read, crop: crop, of: line, in: frame) else { return }
        selection.add(placed, located: line)
        if configuration.keepsRectifiedLines { trace.rectified.append(crop) }
    }

    /// `image` turned by `turn` and read as it stands: its lines in the turned frame, its glare mapped back to
    /// `image`'s pixels.
    private mutating func readTurned(_ image: GrayImage, _ turn: ExifOrientation, file: String) throws(ReaderStageError) -> ReadPass {
        logger.debug("\(file): read turned \(turn)")
        var pass = try read(image.applying(turn), file: file, standingUpright: false)
        pass.result.readOrientation = turn
        pass.result.glare = pass.result.glare.map { $0.turned(turn, imageWidth: image.width, imageHeight: image.height) }
        pass.imageSize = (image.width, image.height)
        return pass
    }
}
