import Foundation
import Dispatch
import Synchronization

/// SIGINT (Ctrl-C) and SIGTERM (what `kill` and job systems send) ask the current run to stop
/// after the frame in hand: frames already written stay, files in progress are removed (they
/// only ever carry temporary names), and the exit status is 128 + the signal. A second signal
/// exits at once (temporary files may then remain, never under a final name).
enum Interrupts {
    static let received = Atomic<Int32>(0)
    nonisolated(unsafe) static var sources: [DispatchSourceSignal] = []

    static func install() {
        // A write to an ffmpeg that exited must fail with EPIPE (reported), not kill us.
        signal(SIGPIPE, SIG_IGN)
        for s in [SIGINT, SIGTERM] {
            signal(s, SIG_IGN)
            let src = DispatchSource.makeSignalSource(signal: s, queue: .global())
            src.setEventHandler {
                if received.exchange(s, ordering: .relaxed) != 0 {
                    FileHandle.standardError.write(Data("\ncarender: interrupted again, exiting now\n".utf8))
                    _exit(128 + s)
                }
            }
            src.resume()
            sources.append(src)
        }
    }

    /// The signal that asked to stop, if any.
    static var pending: Int32? {
        let s = received.load(ordering: .relaxed)
        return s == 0 ? nil : s
    }

    static func checkpoint() throws {
        if let s = pending { throw CLIError("interrupted by \(s == SIGINT ? "SIGINT" : "SIGTERM")", code: 128 + s) }
    }
}
