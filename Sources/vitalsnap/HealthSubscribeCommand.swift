import ArgumentParser
import Foundation
import VitalSnapCore
import VitalSnapHealth

/// `--sets routine,diabetes` and `--types HKQuantityTypeIdentifierStepCount,...`, checked.
struct HealthSubscriptionOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Subscription sets, comma-separated: \(HealthSubscriptionSet.allCases.map(\.rawValue).joined(separator: ", ")).",
        valueName: "sets"))
    var sets: String?
    @Option(help: ArgumentHelp(
        "Single HealthKit types, comma-separated (HKQuantityTypeIdentifier..., HKCategoryTypeIdentifier..., HKWorkoutTypeIdentifier).",
        valueName: "types"))
    var types: String?

    func parsedSets() throws -> [HealthSubscriptionSet] {
        try Self.list(sets).map { name in
            guard let set = HealthSubscriptionSet.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
                throw ValidationError(
                    "'\(name)' is not a subscription set: \(HealthSubscriptionSet.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return set
        }
    }

    func parsedTypes() throws -> [String] {
        try Self.list(types).map { type in
            guard type.hasPrefix("HKQuantityTypeIdentifier") || type.hasPrefix("HKCategoryTypeIdentifier")
                || type == HealthSubscriptionSet.workoutIdentifier
            else { throw ValidationError("'\(type)' is not a HealthKit type identifier (HKQuantityTypeIdentifierStepCount, ...)") }
            return type
        }
    }

    static func list(_ text: String?) -> [String] {
        (text ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

struct HealthSubscribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscribe",
        abstract: "Add subscription sets or single types: only what is subscribed is imported.",
        discussion: """
            Kept with the session (in the data directory) and removed by `session end`; a new session starts \
            with none.

            Examples:
              vitalsnap health subscribe --sets diabetes,weight,biometrics
              vitalsnap health subscribe --types HKQuantityTypeIdentifierStepCount
            """)

    @OptionGroup var subscription: HealthSubscriptionOptions
    @OptionGroup var state: StateOptions

    func validate() throws {
        if try subscription.parsedSets().isEmpty && subscription.parsedTypes().isEmpty {
            throw ValidationError("give --sets or --types")
        }
    }

    func run() throws {
        let store = HealthSubscriptions(directory: state.directory)
        do {
            var stored = try store.load()
            for set in try subscription.parsedSets() where !stored.sets.contains(set) { stored.sets.append(set) }
            for type in try subscription.parsedTypes() where !stored.types.contains(type) { stored.types.append(type) }
            try store.save(stored)
            HealthSubscriptionsCommand.show(stored)
        } catch let error as StorageError {
            throw CLIError(error.description)
        }
    }
}

struct HealthUnsubscribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unsubscribe", abstract: "Remove subscription sets or single types (--all: every one).")

    @OptionGroup var subscription: HealthSubscriptionOptions
    @Flag(help: "Remove every subscription.") var all = false
    @OptionGroup var state: StateOptions

    func run() throws {
        let store = HealthSubscriptions(directory: state.directory)
        do {
            var stored = try store.load()
            if all {
                stored = .init()
            } else {
                let sets = try subscription.parsedSets(), types = try subscription.parsedTypes()
                guard !sets.isEmpty || !types.isEmpty else { throw ValidationError("give --sets, --types or --all") }
                stored.sets.removeAll { sets.contains($0) }
                stored.types.removeAll { types.contains($0) }
            }
            try store.save(stored)
            HealthSubscriptionsCommand.show(stored)
        } catch let error as StorageError {
            throw CLIError(error.description)
        }
    }
}

struct HealthSubscriptionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "subscriptions", abstract: "List what is subscribed.")

    @OptionGroup var state: StateOptions

    func run() throws {
        do { Self.show(try HealthSubscriptions(directory: state.directory).load()) } catch { throw CLIError("\(error)") }
    }

    static func show(_ stored: HealthSubscriptions.Stored) {
        if stored.isEmpty {
            print("no subscriptions: nothing is imported (`vitalsnap health subscribe --sets ...`)")
            return
        }
        if !stored.sets.isEmpty { print("sets:  \(stored.sets.map(\.rawValue).joined(separator: ", "))") }
        if !stored.types.isEmpty { print("types: \(stored.types.joined(separator: ", "))") }
    }
}
