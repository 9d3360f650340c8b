import Foundation

/// Asks before something that deletes records. Off a terminal there is nobody to ask: the command must say
/// `--yes`, so a script never deletes by accident.
enum Confirmation {
    static func confirm(_ question: String, assumeYes: Bool) throws {
        if assumeYes { return }
        guard isatty(STDIN_FILENO) != 0 else {
            throw CLIError("\(question.trimmingCharacters(in: .whitespaces)) Not on a terminal: add --yes to go ahead.")
        }
        FileHandle.standardError.write(Data("\(question) [y/N] ".utf8))
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        guard answer == "y" || answer == "yes" else { throw CLIError("cancelled: nothing was changed") }
    }
}
