#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CAFrame

/// The memory of the last frame's offscreen targets, kept for the next one (as `GLRenderer`'s
/// target pool keeps its textures). A frame's masks, mattes and group-opacity subtrees ask for
/// about the same targets frame after frame; made fresh, each was `calloc`ed and its first clear
/// faulted in every page of it (issue 23: a fifth of a Lottie frame with four offscreen passes,
/// cactus). Targets are sized by what they hold, which moves a little from frame to frame, so
/// blocks are kept by capacity, not size: a target takes the smallest kept block it fits in,
/// and a new block leaves a quarter of headroom for the next frames' growth.
struct SoftwareTargetPool {
    /// One block of texels, freed when no pool or frame holds it.
    final class Block {
        let texels: UnsafeMutablePointer<UInt32>
        let capacity: Int

        /// The row extents of the target laid in it (`SoftwareRowExtents.swift`), kept with the
        /// block so that a frame's targets do not allocate them.
        private var extents: UnsafeMutablePointer<SIMD2<Int32>>?
        private var extentRows = 0

        init?(capacity: Int) {
            guard capacity > 0, let p = calloc(capacity, MemoryLayout<UInt32>.stride) else { return nil }
            texels = p.bindMemory(to: UInt32.self, capacity: capacity)
            self.capacity = capacity
        }

        /// Room for `rows` rows' extents.
        func extentStorage(rows: Int) -> UnsafeMutablePointer<SIMD2<Int32>> {
            if rows > extentRows {
                extents?.deallocate()
                extents = .allocate(capacity: rows)
                extentRows = rows
            }
            return extents!
        }

        deinit {
            free(texels)
            extents?.deallocate()
        }
    }

    /// Kept between frames up to this many bytes (256 MB); a frame that uses more keeps what fits.
    static let maxKeptBytes = 256 << 20
    private var spare: [Block] = []

    /// The frame's targets and the blocks they lie in (hold the blocks while the targets are in
    /// use). A kept block holds an earlier frame's pixels, so a target in one is zeroed unless
    /// the frame's first pass into it clears it (a draw pass that clears: every row, in its
    /// bands), which leaves it as a new one would be. Targets too large for a block (or for
    /// memory) get one of their own, as before.
    mutating func targets(for frame: RenderFrame) -> (targets: [SoftwareTarget], blocks: [Block]) {
        var clearedFirst = [Bool?](repeating: nil, count: frame.targets.count)
        for pass in frame.passes {
            guard case .offscreen(let i) = pass.target, i >= 0, i < clearedFirst.count, clearedFirst[i] == nil else { continue }
            if case .draw = pass.kind { clearedFirst[i] = pass.clears } else { clearedFirst[i] = false }
        }
        var out = [SoftwareTarget?](repeating: nil, count: frame.targets.count)
        var blocks: [Block] = []
        // Largest first, each into the smallest kept block that holds it.
        let order = frame.targets.indices.sorted {
            frame.targets[$0].textureWidth * frame.targets[$0].textureHeight > frame.targets[$1].textureWidth * frame.targets[$1].textureHeight
        }
        for i in order {
            let t = frame.targets[i]
            let w = max(t.textureWidth, 1), h = max(t.textureHeight, 1)
            let (n, overflow) = w.multipliedReportingOverflow(by: h)
            guard !overflow, n <= Self.maxKeptBytes / 4 else {
                out[i] = SoftwareTarget(width: w, height: h)
                continue
            }
            var best = -1
            for (k, b) in spare.enumerated() where b.capacity >= n && (best < 0 || b.capacity < spare[best].capacity) { best = k }
            if best >= 0 {
                let b = spare.remove(at: best)
                if clearedFirst[i] != true { b.texels.update(repeating: 0, count: n) }
                blocks.append(b)
                out[i] = SoftwareTarget(width: w, height: h, texels: b.texels, rowExtents: b.extentStorage(rows: h))
            } else if let b = Block(capacity: n + n / 4) {
                blocks.append(b)
                out[i] = SoftwareTarget(width: w, height: h, texels: b.texels, rowExtents: b.extentStorage(rows: h))
            } else {
                out[i] = SoftwareTarget(width: w, height: h)
            }
        }
        return (out.map { $0! }, blocks)
    }

    /// Keeps the blocks the frame just drawn used, for the next frame; the rest are freed.
    mutating func keep(_ blocks: [Block]) {
        spare.removeAll(keepingCapacity: true)
        var bytes = 0
        for b in blocks.sorted(by: { $0.capacity < $1.capacity }) {
            guard bytes + b.capacity * 4 <= Self.maxKeptBytes else { break }
            bytes += b.capacity * 4
            spare.append(b)
        }
    }

    /// Blocks kept for the next frame (tests).
    var count: Int { spare.count }
}
