import ArgumentParser

/// `vitalsnap health`: Apple Health exports into the upload queue.
struct HealthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "health",
        abstract: "Apple Health exports: what to import (subscriptions), and importing an export.",
        discussion: """
            The Health app exports everything as export.zip (Health > profile > Export All Health Data). \
            Choose what reaches the queue with `health subscribe`, then import the export.

            Examples:
              vitalsnap health subscribe --sets diabetes,weight,biometrics
              vitalsnap health import ~/Downloads/export.zip
              vitalsnap health subscriptions
            """,
        subcommands: [
            HealthImportCommand.self, HealthObserveCommand.self, HealthHistoryCommand.self, HealthSubscribeCommand.self,
            HealthUnsubscribeCommand.self,
            HealthSubscriptionsCommand.self,
        ])
}
