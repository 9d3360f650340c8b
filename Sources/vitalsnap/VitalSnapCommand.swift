import ArgumentParser

struct VitalSnapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vitalsnap",
        abstract: "Read the seven-segment displays of home medical devices into health records.",
        subcommands: [BatchCommand.self, EvalCommand.self, PeripheralsCommand.self, InspectCommand.self]
    )
}
