import VitalSnapImaging

/// The terms of the looks in one colour channel (`ReaderStages.channelLooks`): which colour photos
/// `DisplayReader` decodes again with each pixel's brightest or darkest channel as its grey, and which of those
/// readings it takes. In the brightest channel a blue or green digit on a dark screen is as bright as a white
/// one, in the darkest a yellow or cyan digit on a light screen as dark as a black one; but a tinted LCD's
/// background changes with them, against which glare may no longer show, and the glare check passes what glare
/// hides. Measured on the generated medical families (1,200 scenes at each of seeds 900001 and 900002; issue
/// 41): each term below was added for the wrong readings it took out (docs/accuracy.md has the figures).
enum ChannelLook {
    /// Whether a photo refused after every other look (`refused`) is read in a channel: on the contrast looks'
    /// terms (`ContrastLook.mayAsk(after:)`): not after glare over the digits (a scale's 343.6 read `43.6`), an
    /// error code, or a clock or a date read; nor where the refusal doubted a value as an error code upside down
    /// (`Refusal.mayBeTurnedErrorCode`): that screen may show no value at all, and the darkest channel read two
    /// generated error screens so as values (`37` and `20`, where luma had read `93` and `63`).
    static func mayAsk(after refused: PhotoResult) -> Bool {
        ContrastLook.mayAsk(after: refused) && refused.reading?.refusal?.mayBeTurnedErrorCode == nil
    }

    /// Whether the reading in a channel (`second`) of a photo refused in its luma (`refused`) is taken: values
    /// only, and not a value the refusal doubted as lacking a leading `1` or as an error code upside down
    /// (`Refusal.doubts`). The words taken there were as often glare's work as the display's (a monitor's 119
    /// under glare read `HI`, a scale's 17.1 `LO`).
    ///
    /// In the darkest channel, not where a line read is surely light ink (`RecognizedLine.polarityIsSure`): that
    /// channel is asked for coloured digits on a light screen, which it makes dark. A light digit stays light
    /// there against a background it darkens, with less contrast than luma gave it (a colour monitor's white
    /// `72` on pale pink read `77`).
    static func takes(_ second: PhotoResult, refused: PhotoResult, in grey: DecodeOptions.Grey) -> Bool {
        guard let reading = second.reading, !reading.values.isEmpty,
            !second.givesValue(doubtedBy: refused.reading?.refusal) else { return false }
        return grey != .darkestChannel || reading.lines.allSatisfy { $0.polarity == .dark || !$0.polarityIsSure }
    }

    /// The channel's name in a reading's warning ("read in its brightest colour channel").
    static func name(of grey: DecodeOptions.Grey) -> String {
        switch grey {
        case .luma: return "luma"
        case .brightestChannel: return "brightest"
        case .darkestChannel: return "darkest"
        }
    }
}
