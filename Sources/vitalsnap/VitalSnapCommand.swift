import ArgumentParser

@main
struct VitalSnapCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vitalsnap",
        abstract: "Read the seven-segment displays of home medical devices from a camera or photos, and upload the records.",
        discussion: """
            Glucose meters, blood pressure monitors, thermometers, scales and pulse oximeters: hold the device to \
            a camera, or give photos, with the OCR peripheral (the kind of device, see `vitalsnap peripherals`), \
            and get the values shown, or a clear reason why there is none. Accepted readings become health \
            records in an upload queue, sent for the user of the current session.

            With no command, `read` runs: `vitalsnap --peripheral 9 --unit mmol` reads a glucose meter live.

            Examples:
              vitalsnap --peripheral 9 --unit mmol
              vitalsnap read -p 101 --input Samples/clips/settle-glucose-g1 --yes
              vitalsnap peripherals
              vitalsnap batch photos/ --peripheral 9 --format table
              vitalsnap eval Samples/stills
            """,
        subcommands: [
            ReadCommand.self, BatchCommand.self, EvalCommand.self, PeripheralsCommand.self, SessionCommand.self,
            SubmitCommand.self, QueueCommand.self, BLECommand.self, HealthCommand.self,
        ],
        groupedSubcommands: [
            CommandGroup(
                name: "developer",
                subcommands: [
                    InspectCommand.self, SamplesCommand.self, OverlaysCommand.self, ServeIngestionCommand.self, DecodeCommand.self,
                ]),
        ],
        defaultSubcommand: ReadCommand.self
    )
}
