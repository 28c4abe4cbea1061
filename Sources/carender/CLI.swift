import ArgumentParser
import QuartzCore
import Foundation

/// What every subcommand shares: error reporting, limits, messages on stderr.
enum CLI {
    /// Frames one run may render (at 60 fps, 4 h 38 min): a typo'd range of a billion frames
    /// fails at once instead of running for weeks. Longer renders split with --shard.
    static let maxFrames = 1_000_000

    /// Runs `body`; a `CLIError` (or any other error) becomes one line on stderr,
    /// `carender: <message>`, and its exit status.
    static func run(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let e as CLIError {
            note("\(e.message)")
            throw ExitCode(e.code)
        } catch let e as ExitCode {
            throw e
        } catch {
            note("\(error)")
            throw ExitCode(1)
        }
    }

    static func note(_ s: String) {
        FileHandle.standardError.write(Data("carender: \(s)\n".utf8))
    }

    /// `--size`: whole points, 1...16384 per side (the renderer's limit; with --scale the
    /// pixel size is checked again by the renderer).
    static func check(_ size: SizeArgument) throws {
        guard size.width >= 1, size.height >= 1 else {
            throw CLIError.usage("--size \(size.width)x\(size.height): width and height must be at least 1")
        }
        guard size.width <= CARenderer.maxPixelSize, size.height <= CARenderer.maxPixelSize else {
            throw CLIError.usage("--size \(size.width)x\(size.height): at most \(CARenderer.maxPixelSize) per side")
        }
    }
}
