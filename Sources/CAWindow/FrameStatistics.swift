import Foundation

/// Frame times of a window's frame loop: intervals between presented frames, the CPU time of
/// each frame's work (events, display links, commit, frame step, render tree, GL), and frames
/// dropped (refresh intervals missed). Printed on exit when `LayerWindow.printsStatisticsOnClose`
/// is set. Extension beyond Apple's API (Instruments' Core Animation FPS tool plays this role).
public struct FrameStatistics: Sendable, CustomStringConvertible {
    /// Seconds between consecutive presented frames.
    public private(set) var frameIntervals: [Double] = []
    /// Seconds of work per frame, from polling events to the swap call.
    public private(set) var workTimes: [Double] = []
    /// Seconds per frame building the render tree, and executing it in GL (the renderer's
    /// `RenderStats.buildSeconds` / `glSeconds`; 0 for a reused frame).
    public private(set) var buildTimes: [Double] = []
    public private(set) var glTimes: [Double] = []
    /// Frames presented.
    public private(set) var frames = 0
    /// Refresh intervals missed (see `FramePacer`).
    public var droppedFrames = 0
    /// The display's refresh interval the loop ran against.
    public var refreshInterval: Double

    /// At most this many samples are kept (the oldest are dropped): a long session stays small.
    public static let maxSamples = 100_000

    public init(refreshInterval: Double) { self.refreshInterval = refreshInterval }

    package mutating func record(interval: Double?, work: Double, build: Double = 0, gl: Double = 0) {
        frames += 1
        if build.isFinite, build >= 0 { append(&buildTimes, build) }
        if gl.isFinite, gl >= 0 { append(&glTimes, gl) }
        if let interval, interval.isFinite, interval >= 0 { append(&frameIntervals, interval) }
        if work.isFinite, work >= 0 { append(&workTimes, work) }
    }

    private func append(_ a: inout [Double], _ v: Double) {
        if a.count >= Self.maxSamples { a.removeFirst(a.count / 10) }
        a.append(v)
    }

    /// The `p`-th percentile (0…100) of `samples` by nearest rank; nil when empty.
    public static func percentile(_ p: Double, of samples: [Double]) -> Double? {
        guard !samples.isEmpty, p.isFinite else { return nil }
        let sorted = samples.sorted()
        let clamped = min(max(p, 0), 100)
        let rank = Int((clamped / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// Frames per second over the recorded intervals.
    public var framesPerSecond: Double? {
        let total = frameIntervals.reduce(0, +)
        return total > 0 ? Double(frameIntervals.count) / total : nil
    }

    public var description: String {
        func ms(_ v: Double?) -> String { v.map { String(format: "%.2f", $0 * 1000) } ?? "-" }
        func line(_ name: String, _ s: [Double]) -> String {
            "\(name) ms: p50 \(ms(Self.percentile(50, of: s))), p90 \(ms(Self.percentile(90, of: s))), "
                + "p99 \(ms(Self.percentile(99, of: s))), max \(ms(s.max()))"
        }
        let fps = framesPerSecond.map { String(format: "%.1f", $0) } ?? "-"
        return "\(frames) frames, \(fps) fps (display \(String(format: "%.1f", 1 / refreshInterval)) Hz), "
            + "\(droppedFrames) dropped\n" + line("frame interval", frameIntervals) + "\n" + line("frame work", workTimes)
            + "\n" + line("  render tree", buildTimes) + "\n" + line("  GL", glTimes)
    }
}
