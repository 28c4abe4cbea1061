import ArgumentParser
import Foundation

// Exit statuses (docs/CARENDER.md): 0 success, 1 a failed render or an invalid scene, 2 a usage
// error — the argument parser's own validation errors included, which it reports as 64
// (EX_USAGE) by default — and 128 + the signal when interrupted.
do {
    var command = try Carender.parseAsRoot()
    try command.run()
} catch {
    let code = Carender.exitCode(for: error)
    if code == .validationFailure {
        FileHandle.standardError.write(Data((Carender.fullMessage(for: error) + "\n").utf8))
        exit(2)
    }
    Carender.exit(withError: error)
}
