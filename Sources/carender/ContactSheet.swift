import QuartzCore
import Foundation

/// A grid of frames, each downscaled by averaging, on a dark background: one PNG a person can
/// look at to see the whole animation. Up to `maxFrames` frames evenly spaced over the run are
/// kept as thumbnails when they arrive (never the full frames, so a long 4K run costs a few
/// MB), from the encoder threads.
final class ContactSheet: @unchecked Sendable {
    static let maxFrames = 12
    let columns: Int
    let slots: [Int: Int]   // frame index → grid position
    let step: Int
    let frameWidth: Int, frameHeight: Int
    let thumbWidth: Int, thumbHeight: Int
    let gap = 4
    let lock = NSLock()
    var thumbnails: [Int: [UInt8]] = [:]

    /// `frames`: the frame indices of the run, in order. Thumbnails are at most ~320 px wide.
    init(frames: [Int], frameWidth: Int, frameHeight: Int) {
        let n = min(frames.count, Self.maxFrames)
        var picked: [Int] = []
        for k in 0..<n {
            let i = n == 1 ? 0 : k * (frames.count - 1) / (n - 1)
            picked.append(frames[i])
        }
        slots = Dictionary(picked.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { a, _ in a })
        columns = n <= 4 ? max(1, n) : (n <= 9 ? 3 : 4)
        self.frameWidth = frameWidth
        self.frameHeight = frameHeight
        step = max(1, (frameWidth + 319) / 320)
        thumbWidth = max(1, frameWidth / step)
        thumbHeight = max(1, frameHeight / step)
    }

    func wants(_ index: Int) -> Bool { slots[index] != nil }

    /// Keeps a thumbnail of `frame` if it is one of the sheet's frames.
    func add(_ frame: RenderedFrame) {
        guard let slot = slots[frame.index] else { return }
        let src = frame.pixels
        var thumb = [UInt8](repeating: 0, count: thumbWidth * thumbHeight * 4)
        let area = step * step
        for y in 0..<thumbHeight {
            for x in 0..<thumbWidth {
                var acc = (0, 0, 0, 0)
                for sy in 0..<step {
                    var i = ((y * step + sy) * frameWidth + x * step) * 4
                    for _ in 0..<step {
                        acc.0 += Int(src[i]); acc.1 += Int(src[i + 1]); acc.2 += Int(src[i + 2]); acc.3 += Int(src[i + 3])
                        i += 4
                    }
                }
                let o = (y * thumbWidth + x) * 4
                thumb[o] = UInt8(acc.0 / area); thumb[o + 1] = UInt8(acc.1 / area)
                thumb[o + 2] = UInt8(acc.2 / area); thumb[o + 3] = UInt8(acc.3 / area)
            }
        }
        lock.lock()
        thumbnails[slot] = thumb
        lock.unlock()
    }

    /// The sheet of the thumbnails kept so far, in frame order, composited (premultiplied
    /// source-over) onto the dark background.
    func image() -> CGImage? {
        lock.lock()
        let kept = thumbnails
        lock.unlock()
        guard !kept.isEmpty else { return nil }
        let count = (kept.keys.max() ?? 0) + 1
        let rows = (count + columns - 1) / columns
        let cols = min(columns, count)
        let w = cols * thumbWidth + (cols + 1) * gap, h = rows * thumbHeight + (rows + 1) * gap
        var out = [UInt8](repeating: 0, count: w * h * 4)
        for i in stride(from: 0, to: out.count, by: 4) { out[i] = 24; out[i + 1] = 24; out[i + 2] = 28; out[i + 3] = 255 }
        for (n, thumb) in kept {
            let ox = gap + (n % columns) * (thumbWidth + gap), oy = gap + (n / columns) * (thumbHeight + gap)
            for y in 0..<thumbHeight {
                for x in 0..<thumbWidth {
                    let s = (y * thumbWidth + x) * 4, o = ((oy + y) * w + ox + x) * 4
                    let a = Int(thumb[s + 3])
                    for c in 0..<3 { out[o + c] = UInt8(min(255, Int(thumb[s + c]) + Int(out[o + c]) * (255 - a) / 255)) }
                }
            }
        }
        return CGImage(width: w, height: h, rgba8Bytes: out, premultiplied: true)
    }
}
