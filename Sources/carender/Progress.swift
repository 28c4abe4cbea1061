import Foundation

/// Progress of a long run on stderr. On a terminal: one redrawn line, frames done/total, fps,
/// ETA and a bar filling the rest of the terminal's width (`TIOCGWINSZ`, read at each redraw,
/// so a resized window is followed). Nothing when stderr is not a terminal (logs stay clean;
/// `--json` gives wrappers events instead), for a single frame, or with `--quiet`.
/// `--json`: one JSON object per line instead (`ProgressEvents`).
final class Progress {
    let total: Int
    let label: String
    let quiet: Bool
    let isTerminal: Bool
    let events: ProgressEvents?
    let start = Date()
    var done = 0
    var lastDraw = Date.distantPast

    init(total: Int, label: String, quiet: Bool, events: ProgressEvents? = nil) {
        self.total = total
        self.label = label
        self.events = events
        // A single frame has nothing to follow.
        self.quiet = quiet || total <= 1
        isTerminal = isatty(STDERR_FILENO) == 1
    }

    var elapsed: Double { Date().timeIntervalSince(start) }
    var fps: Double { elapsed > 0 ? Double(done) / elapsed : 0 }

    /// The terminal's width in columns (80 when it does not say).
    static func terminalColumns() -> Int {
        var ws = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0 else { return 80 }
        return Int(ws.ws_col)
    }

    func frameDone() {
        done += 1
        let now = Date()
        if let events {
            guard done == total || done == 1 || now.timeIntervalSince(lastDraw) >= 0.2 else { return }
            lastDraw = now
            events.emit(["event": "progress", "done": done, "total": total, "fps": (fps * 10).rounded() / 10,
                         "etaSeconds": etaSeconds.map { ($0 * 10).rounded() / 10 } as Any])
            return
        }
        guard !quiet, isTerminal else { return }
        guard done == total || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        write("\r" + line(columns: Self.terminalColumns()) + "\u{1B}[K")
    }

    /// The progress line for a terminal `columns` wide: the bar takes what the text leaves
    /// (at least 10 cells, or none when even that does not fit), and the line never wraps.
    func line(columns: Int) -> String {
        let text = " \(done)/\(total) frames  \(format(fps)) fps  ETA \(eta())"
        let room = columns - 1 - label.count - 1 - text.count
        guard room >= 10 else { return String((label + text).prefix(max(columns - 1, 0))) }
        let width = room
        let filled = total > 0 ? width * done / total : width
        return label + " " + String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled) + text
    }

    /// Ends the bar's line (on a terminal) before other messages.
    func finish() {
        if !quiet, events == nil, isTerminal, done > 0 { write("\n") }
    }

    var etaSeconds: Double? {
        guard done > 0, fps > 0 else { return nil }
        return Double(total - done) / fps
    }

    func eta() -> String {
        guard let e = etaSeconds else { return "?" }
        let s = Int(e.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }

    func format(_ x: Double) -> String { String(format: "%.1f", x) }
    func write(_ s: String) { FileHandle.standardError.write(Data(s.utf8)) }
}

/// `--json`: progress as events for wrappers, one JSON object per line on stderr (stdout may
/// carry the output itself, `-o -`): `start` (frames, width, height, output), `progress`
/// (done, total, fps, etaSeconds; at most five a second, plus the first and last), `done`
/// (frames, seconds, output), `interrupted`, `error` (message, status). Keys keep their
/// meaning; new keys may be added.
final class ProgressEvents {
    func emit(_ object: [String: Any]) {
        var o = object
        // An optional (nil ETA) inside Any: its value, or JSON null.
        for (k, v) in o where Mirror(reflecting: v).displayStyle == .optional {
            o[k] = Mirror(reflecting: v).children.first?.value ?? NSNull()
        }
        guard let data = try? JSONSerialization.data(withJSONObject: o, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        FileHandle.standardError.write(data + Data("\n".utf8))
    }
}
