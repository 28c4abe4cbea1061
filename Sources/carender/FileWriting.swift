import QuartzCore
import CAExport
import Foundation

/// Files appear under their final name only when complete: each is written to a hidden
/// temporary name in the same folder (`.NAME.partial-PID`) and renamed, which is atomic on one
/// file system. An interrupted or failed run leaves at most such temporary files, which a
/// later run does not mistake for output.
enum FileWriting {
    static func temporaryURL(for url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial-\(getpid())")
    }

    static func writeAtomically(_ data: Data, to url: URL) throws {
        let tmp = temporaryURL(for: url)
        do {
            try data.write(to: tmp)
        } catch {
            try? FileManager.default.removeItem(at: tmp)
            throw CLIError("cannot write \(url.path): \(reason(error))")
        }
        try commit(tmp, to: url)
    }

    /// Renames a finished temporary file to its final name (replacing an older file).
    static func commit(_ tmp: URL, to url: URL) throws {
        if rename(tmp.path, url.path) != 0 {
            let e = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: tmp)
            throw CLIError("cannot write \(url.path): \(e)")
        }
    }

    /// Encodes premultiplied RGBA8 pixels as PNG: `.fast` through `PNGFrameEncoder` (CAExport),
    /// `.small` through libpng (`CGImage.pngData()`). Both are deterministic.
    static func pngData(_ pixels: [UInt8], width: Int, height: Int, compression: PNGCompression = .fast) throws -> Data {
        if compression == .fast {
            do { return try PNGFrameEncoder.encode(premultipliedRGBA: pixels, width: width, height: height) } catch {
                throw CLIError(error.message)
            }
        }
        guard let img = CGImage(width: width, height: height, rgba8Bytes: pixels, premultiplied: true), let png = img.pngData() else {
            throw CLIError("PNG encoding of a \(width)×\(height) frame failed")
        }
        return png
    }

    /// Makes `dir` (and its parents) and checks that files can be created in it, so a bad
    /// output path fails before any rendering.
    static func prepareDirectory(_ dir: URL) throws {
        let path = dir.path.isEmpty ? "." : dir.path
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDir) {
            guard isDir.boolValue else { throw CLIError("cannot write into \(path): it is a file, not a folder") }
        } else {
            // Name the part of the path that is in the way (a file where a folder must be).
            var ancestor = URL(fileURLWithPath: path).deletingLastPathComponent()
            while ancestor.path != "/", !FileManager.default.fileExists(atPath: ancestor.path) { ancestor.deleteLastPathComponent() }
            if FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isDir), !isDir.boolValue {
                throw CLIError("cannot create the output folder \(path): \(ancestor.path) is a file")
            }
            do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
                throw CLIError("cannot create the output folder \(path): \(reason(error))")
            }
        }
        guard access(path, W_OK | X_OK) == 0 else { throw CLIError("cannot write into \(path): \(String(cString: strerror(errno)))") }
    }

    /// The underlying system message of a Foundation file error, without the wrapper text.
    static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let u = ns.userInfo[NSUnderlyingErrorKey] as? NSError, u.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(u.code)))
        }
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
        if ns.domain == NSCocoaErrorDomain {
            switch ns.code {
            case NSFileWriteNoPermissionError, NSFileReadNoPermissionError: return "permission denied"
            case NSFileWriteOutOfSpaceError: return "no space left on the device"
            case NSFileWriteVolumeReadOnlyError: return "read-only file system"
            case NSFileNoSuchFileError, NSFileReadNoSuchFileError: return "no such file or folder"
            default: break
            }
        }
        return ns.localizedDescription
    }
}

/// `--png-compression`: how hard frame PNGs are compressed.
enum PNGCompression: String, CaseIterable {
    /// `PNGFrameEncoder` (Sub filter, CAExport's deflate encoder for rendered frames): the
    /// default for exports.
    case fast
    /// libpng's defaults (adaptive filters, zlib level 6): smaller files, many times slower.
    case small
}
