import ArgumentParser
import Foundation

/// `--size WxH`: a size in points, e.g. `1920x1080` (`×` also accepted).
struct SizeArgument: ExpressibleByArgument, Equatable {
    var width: Int
    var height: Int

    init?(argument: String) {
        let parts = argument.lowercased().replacingOccurrences(of: "×", with: "x").split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { return nil }
        width = w
        height = h
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

/// `--frames A..<B` (B excluded) or `A...B` (B included): global frame indices, frame i is
/// drawn at time i / fps.
struct FrameRangeArgument: ExpressibleByArgument, Equatable {
    var range: Range<Int>

    init?(argument: String) {
        if let r = argument.range(of: "..<") {
            guard let a = Int(argument[..<r.lowerBound]), let b = Int(argument[r.upperBound...]) else { return nil }
            guard a <= b else { return nil }
            range = a..<b
        } else if let r = argument.range(of: "...") {
            guard let a = Int(argument[..<r.lowerBound]), let b = Int(argument[r.upperBound...]), a <= b, b < Int.max else { return nil }
            range = a..<(b + 1)
        } else {
            return nil
        }
    }
}

/// `--shard K/N`: slice K (counting from 0) of N. The frame range is cut into N contiguous
/// blocks whose sizes differ by at most one: slice K covers global frames
/// `A + ⌊F·K/N⌋ ..< A + ⌊F·(K+1)/N⌋` of the F frames from A. Every frame is in exactly one
/// slice, and frames keep their global numbers, so the slices' files join by name.
struct ShardArgument: ExpressibleByArgument, Equatable {
    var index: Int
    var count: Int

    init?(argument: String) {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else { return nil }
        index = k
        count = n
    }

    func validated() throws -> ShardArgument {
        guard count >= 1, count <= 100_000 else { throw CLIError.usage("--shard \(index)/\(count): N must be 1...100000") }
        guard index >= 0, index < count else {
            throw CLIError.usage("--shard \(index)/\(count): K counts from 0 and must be below N (0...\(count - 1))")
        }
        return self
    }

    /// This slice of `range` (contiguous block; see the type's comment).
    func slice(of range: Range<Int>) -> Range<Int> {
        let f = range.count
        // F·K fits in Int: F ≤ the frame limit (1e6) and K < 1e5.
        let lo = range.lowerBound + f * index / count
        let hi = range.lowerBound + f * (index + 1) / count
        return lo..<hi
    }
}
