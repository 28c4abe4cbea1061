import ArgumentParser
import Foundation

/// `--size WxH`: a size in points, e.g. `1920x1080` (`×` also accepted).
/// The option values are parsed here, not by the argument parser, so that a malformed value
/// gets carender's one-line error like every other bad input.
struct SizeArgument: Equatable {
    var width: Int
    var height: Int

    init(_ argument: String) throws {
        let parts = argument.lowercased().replacingOccurrences(of: "×", with: "x").split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else {
            throw CLIError.usage("--size \(argument): expected WIDTHxHEIGHT in points, e.g. 1920x1080")
        }
        width = w
        height = h
    }
}

/// A number option: finite, within `range`.
func parseNumber(_ text: String, option: String, in range: ClosedRange<Double>, what: String) throws -> Double {
    guard let v = Double(text), v.isFinite, range.contains(v) else {
        throw CLIError.usage("\(option) \(text): \(what)")
    }
    return v
}

/// `--frames A..<B` (B excluded) or `A...B` (B included): global frame indices, frame i is
/// drawn at time i / fps.
struct FrameRangeArgument: Equatable {
    var range: Range<Int>

    init(_ argument: String) throws {
        let bad = CLIError.usage("--frames \(argument): expected A..<B (B excluded) or A...B with 0 ≤ A ≤ B, e.g. '0..<90' (quote it: < is special to the shell)")
        var a: Int?, b: Int?
        if let r = argument.range(of: "..<") {
            a = Int(argument[..<r.lowerBound]); b = Int(argument[r.upperBound...])
        } else if let r = argument.range(of: "...") {
            a = Int(argument[..<r.lowerBound]); b = Int(argument[r.upperBound...]).flatMap { $0 < Int.max ? $0 + 1 : nil }
        }
        guard let a, let b, a >= 0, a <= b else { throw bad }
        range = a..<b
    }
}

/// `--shard K/N`: slice K (counting from 0) of N. The frame range is cut into N contiguous
/// blocks whose sizes differ by at most one: slice K covers global frames
/// `A + ⌊F·K/N⌋ ..< A + ⌊F·(K+1)/N⌋` of the F frames from A. Every frame is in exactly one
/// slice, and frames keep their global numbers, so the slices' files join by name.
struct ShardArgument: Equatable {
    var index: Int
    var count: Int

    init(_ argument: String) throws {
        let parts = argument.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
            throw CLIError.usage("--shard \(argument): expected K/N, slice K (from 0) of N, e.g. 0/4")
        }
        index = k
        count = n
        try validate()
    }

    func validate() throws {
        guard count >= 1, count <= 100_000 else { throw CLIError.usage("--shard \(index)/\(count): N must be 1...100000") }
        guard index >= 0, index < count else {
            throw CLIError.usage("--shard \(index)/\(count): K counts from 0 and must be below N (0...\(count - 1))")
        }
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
