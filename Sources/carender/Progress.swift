import Foundation

/// Progress of a long run on stderr: a redrawn bar on a terminal (frames done/total, fps, ETA),
/// else one plain line every `every` frames (logs stay readable); nothing with `--quiet`.
final class Progress {
    let total: Int
    let label: String
    let quiet: Bool
    let isTerminal: Bool
    let every: Int
    let start = Date()
    var done = 0
    var lastDraw = Date.distantPast

    init(total: Int, label: String, quiet: Bool) {
        self.total = total
        self.label = label
        self.quiet = quiet
        isTerminal = isatty(STDERR_FILENO) == 1
        every = total <= 20 ? max(total, 1) : min(100, total / 10)
    }

    var elapsed: Double { Date().timeIntervalSince(start) }
    var fps: Double { elapsed > 0 ? Double(done) / elapsed : 0 }

    func frameDone() {
        done += 1
        guard !quiet else { return }
        if isTerminal {
            let now = Date()
            guard done == total || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
            lastDraw = now
            let width = 30
            let filled = total > 0 ? width * done / total : width
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            write("\r\(label) \(bar) \(done)/\(total) frames  \(format(fps)) fps  ETA \(eta())\u{1B}[K")
        } else if done % every == 0 || done == total {
            write("\(label): frame \(done)/\(total) (\(100 * done / max(total, 1))%), \(format(fps)) fps, ETA \(eta())\n")
        }
    }

    /// Ends the bar's line (on a terminal) before other messages.
    func finish() {
        if !quiet, isTerminal, done > 0 { write("\n") }
    }

    func eta() -> String {
        guard done > 0, fps > 0 else { return "?" }
        let s = Int((Double(total - done) / fps).rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }

    func format(_ x: Double) -> String { String(format: "%.1f", x) }
    func write(_ s: String) { FileHandle.standardError.write(Data(s.utf8)) }
}
