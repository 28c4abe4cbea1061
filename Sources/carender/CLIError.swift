/// A failure reported to the user as one line on stderr (`carender: <message>`) with a non-zero
/// exit status. `code` 1 is a failed run or invalid scene, 2 is a usage error (as the argument
/// parser uses), 130 is an interruption (SIGINT, the shell convention 128 + 2).
struct CLIError: Error, CustomStringConvertible {
    var message: String
    var code: Int32 = 1
    init(_ message: String, code: Int32 = 1) { self.message = message; self.code = code }
    var description: String { message }

    static func usage(_ message: String) -> CLIError { CLIError(message, code: 2) }
}
