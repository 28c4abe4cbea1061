import QuartzCore

/// Drives `CADisplayLink`s from a window's frames instead of run-loop timers. A link whose
/// preferred rate is below the display's fires every `n`-th frame, `n` = display rate ÷
/// preferred rate rounded (Apple picks the nearest rate the display can show), counted from
/// the frame it was added on.
final class DisplayLinkDriver: CADisplayLinkSource {
    private struct Entry {
        let link: CADisplayLink
        let firstFrame: Int
    }
    private var entries: [Entry] = []
    /// Frames driven so far.
    private(set) var frameIndex = 0
    /// The display's refresh rate, given to each link as its native rate.
    var refreshRate: Double

    init(refreshRate: Double) { self.refreshRate = refreshRate }

    var links: [CADisplayLink] { entries.map(\.link) }

    func attach(_ link: CADisplayLink) {
        guard !entries.contains(where: { $0.link === link }) else { return }
        link.nativeFramesPerSecond = refreshRate
        entries.append(Entry(link: link, firstFrame: frameIndex))
    }

    func detach(_ link: CADisplayLink) {
        entries.removeAll { $0.link === link }
    }

    /// Frames between two ticks of `link` at the display's rate.
    func framesPerTick(_ link: CADisplayLink) -> Int {
        max(1, Int((refreshRate / link.effectiveFramesPerSecond).rounded()))
    }

    /// Fires the links due on this frame (shown at `timestamp`, the next at `timestamp +
    /// interval`). Links added or removed by a callback take effect from the next frame.
    func fire(timestamp: Double, interval: Double) {
        defer { frameIndex += 1 }
        for e in entries {
            if e.link.isInvalidated { detach(e.link); continue }
            e.link.nativeFramesPerSecond = refreshRate
            let n = framesPerTick(e.link)
            guard (frameIndex - e.firstFrame) % n == 0 else { continue }
            e.link.fire(timestamp: timestamp, targetTimestamp: timestamp + Double(n) * interval, duration: interval)
        }
    }

    func removeAll() { entries.removeAll() }
}
