import ArgumentParser

@main
struct VitalSnapCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vitalsnap",
        abstract: "Read the seven-segment displays of home medical devices from photos.",
        discussion: """
            Glucose meters, blood pressure monitors, thermometers, scales and pulse oximeters: give the photos \
            and the OCR peripheral (the kind of device, see `vitalsnap peripherals`) and get the values shown, \
            or a clear reason why there is none.

            Examples:
              vitalsnap peripherals
              vitalsnap batch photos/ --peripheral 9 --format table
              vitalsnap eval Samples/stills
            """,
        subcommands: [
            BatchCommand.self, EvalCommand.self, PeripheralsCommand.self, SessionCommand.self, SubmitCommand.self,
            QueueCommand.self,
        ],
        groupedSubcommands: [
            CommandGroup(
                name: "developer",
                subcommands: [InspectCommand.self, SamplesCommand.self, OverlaysCommand.self, ServeIngestionCommand.self]),
        ]
    )
}
