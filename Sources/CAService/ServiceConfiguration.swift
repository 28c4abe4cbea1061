import Foundation

/// How `carender serve` runs (docs/CARENDER.md, "Render service"): where it listens, how many
/// renders run at once, how many wait, and the limits every request is held to. Plain data;
/// `carender serve` fills it from its options.
package struct ServiceConfiguration: Sendable {
    package var host = "127.0.0.1"
    /// 0 picks a free port (the one chosen is logged: "listening on http://HOST:PORT").
    package var port = 8080
    /// Renders that run at once. Each is its own `carender render` process with its own GL
    /// context (or CPU backend), so the default is one per CPU core: llvmpipe and the CPU
    /// backend spread one frame over the cores, several processes keep them busy between
    /// frames (scene load, encoding).
    package var slots = ProcessInfo.processInfo.activeProcessorCount
    /// Requests that may wait for a slot; one more is answered 503 with Retry-After.
    package var maxQueue = 64
    /// The largest request body (the document) accepted; a larger one is answered 413.
    package var maxBodyBytes = 32 << 20
    /// How long a request may take from its arrival (waiting included) to its answer; past it
    /// the render is stopped and the answer is 504.
    package var timeout: Duration = .seconds(120)
    /// `--backend` handed to every render (gl, cpu, auto); nil: carender's default.
    package var backend: String?
    /// The `carender` executable that renders (this process's own binary).
    package var renderExecutable: String
    /// Where each request's folder (document, output, ffmpeg's log) is made; removed at exit.
    package var temporaryRoot: URL

    package init(renderExecutable: String, temporaryRoot: URL) {
        self.renderExecutable = renderExecutable
        self.temporaryRoot = temporaryRoot
    }
}
