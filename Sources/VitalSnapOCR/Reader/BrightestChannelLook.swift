/// The terms of the look in the brightest channel (`ReaderStages.readsBrightestChannel`): which colour photos
/// `DisplayReader` decodes again with each pixel's brightest channel as its grey, and which of those readings it
/// takes. In the brightest channel a blue or green digit is as bright as a white one; but so is a tinted LCD's
/// background, against which glare no longer shows, and the glare check passes what glare hides. Measured on
/// the generated medical families (1,200 scenes at each of seeds 900001 and 900002; issue 41): each term below
/// was added for the wrong readings it took out (docs/accuracy.md has the figures).
enum BrightestChannelLook {
    /// Whether a photo refused after every other look (`refused`) is read in its brightest channel: on the
    /// contrast looks' terms (`ContrastLook.mayAsk(after:)`): not after glare over the digits (a scale's 343.6
    /// read `43.6`), an error code, or a clock or a date read.
    static func mayAsk(after refused: PhotoResult) -> Bool { ContrastLook.mayAsk(after: refused) }

    /// Whether the reading in the brightest channel (`second`) of a photo refused in its luma (`refused`) is
    /// taken: values only, and not a value the refusal doubted as lacking a leading `1` or as an error code
    /// upside down (`Refusal.doubts`). The words taken there were as often glare's work as the display's (a
    /// monitor's 119 under glare read `HI`, a scale's 17.1 `LO`).
    static func takes(_ second: PhotoResult, refused: PhotoResult) -> Bool {
        second.reading?.values.isEmpty == false && !second.givesValue(doubtedBy: refused.reading?.refusal)
    }
}
