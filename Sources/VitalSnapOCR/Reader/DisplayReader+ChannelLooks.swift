import VitalSnapImaging

/// The looks at a colour photo refused in its luma, in its brightest and darkest channels (`ChannelLook`,
/// `ReaderStages.channelLooks`).
extension DisplayReader {
    /// A photo read in its luma (`luma`, as `read(image:file:)` reads it); refused, read again in each of
    /// `channelLooks` in turn, without the contrast looks (`ChannelLook`), `channel` giving the photo with that
    /// channel as its grey (nil: the file could not be decoded so).
    mutating func readInColour(
        _ luma: GrayImage, file: String, channel: (DecodeOptions.Grey) -> GrayImage?
    ) throws(ReaderStageError) -> PhotoResult {
        let refused = try read(image: luma, file: file)
        for grey in channelLooks {
            guard ChannelLook.mayAsk(after: refused) else { break }
            // A grey photo decodes to the same grey in every channel: nothing more to read.
            guard let image = channel(grey), image != luma else { continue }
            var second = try readWithLooks(image, file: file)
            guard ChannelLook.takes(second, refused: refused, in: grey), !contradictsSureTexts(second) else { continue }
            let why = refused.message ?? "no reading"
            let channel = ChannelLook.name(of: grey)
            second.warnings.append("read in its \(channel) colour channel: the first reading gave nothing (\(why))")
            return second
        }
        return refused
    }

    /// `file` decoded again with `grey` as its grey; nil where it cannot be.
    static func decode(_ file: String, _ options: DecodeOptions, in grey: DecodeOptions.Grey) -> GrayImage? {
        var options = options
        options.grey = grey
        return try? ImageDecoder.decode(contentsOf: file, options: options).image
    }
}
