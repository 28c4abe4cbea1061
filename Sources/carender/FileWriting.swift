import QuartzCore
import CAExport
import Foundation

/// Files appear under their final name only when complete: each is written to a hidden
/// temporary name in the same folder (`.NAME.partial-PID-RANDOM`) and renamed, which is atomic
/// on one file system. An interrupted or failed run leaves at most such temporary files, which
/// a later run does not mistake for output.
///
/// The temporary file is always one this process has just created (issue 17): `open(2)` with
/// `O_CREAT | O_EXCL` fails when anything exists under that name, a symbolic link included
/// ("If O_CREAT and O_EXCL are set, open() shall fail if the file exists … If O_EXCL and
/// O_CREAT are set, and path names a symbolic link, open() shall fail with errno set to
/// [EEXIST], regardless of the contents of the symbolic link", POSIX.1-2017 open()), and
/// `O_NOFOLLOW` says the same once more. So a link planted under the temporary name (the old
/// name `.NAME.partial-PID` was predictable) can no longer make carender write through it into
/// another file; the random part makes the name unguessable as well. `rename(2)` then replaces
/// the final name itself, never a file a link there points to.
enum FileWriting {
    /// The longest file name (bytes) the folder's file system accepts: `pathconf(_PC_NAME_MAX)`,
    /// 255 where it does not say (NAME_MAX on Linux file systems).
    static func nameMax(_ dir: URL) -> Int {
        let path = dir.path.isEmpty ? "." : dir.path
        let n = pathconf(path, Int32(_PC_NAME_MAX))
        return n > 0 ? n : 255
    }

    /// The longest prefix of `s` (whole characters) of at most `bytes` UTF-8 bytes.
    static func prefix(_ s: String, bytes: Int) -> String {
        var out = "", used = 0
        for c in s {
            let n = c.utf8.count
            if used + n > bytes { break }
            out.append(c); used += n
        }
        return out
    }

    /// Creates a new empty file at `path` and opens it for writing, failing if anything is
    /// there already (see the type's comment). Mode 0666 less the umask, as any new file —
    /// the umask is applied by the kernel, so no thread has to change it (umask(2) is
    /// process-wide, and frames are written from several threads).
    static func createExclusively(_ path: String) -> Int32 {
        open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
    }

    /// A fresh hidden temporary file beside `url`, created by this call, and its descriptor.
    /// Its name is `.NAME.partial-PID-RANDOM`, NAME shortened where the whole would exceed
    /// the folder's name limit (so any final name that fits has a temporary name that fits).
    static func createTemporary(for url: URL) throws -> (URL, Int32) {
        let dir = url.deletingLastPathComponent()
        let limit = nameMax(dir)
        for _ in 0..<16 {
            let suffix = ".partial-\(getpid())-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
            let stem = prefix(url.lastPathComponent, bytes: max(limit - 1 - suffix.utf8.count, 1))
            let tmp = dir.appendingPathComponent("." + stem + suffix)
            let fd = createExclusively(tmp.path)
            if fd >= 0 { Interrupts.track(temporary: tmp.path); return (tmp, fd) }
            if errno == EEXIST || errno == ELOOP { continue }   // something is there: another name
            throw CLIError("cannot write \(url.path): \(String(cString: strerror(errno)))")
        }
        throw CLIError("cannot write \(url.path): no temporary name could be created beside it")
    }

    static func writeAtomically(_ data: Data, to url: URL) throws {
        let (tmp, fd) = try createTemporary(for: url)
        var failure: String?
        data.withUnsafeBytes { buf in
            var offset = 0
            while offset < buf.count {
                let n = write(fd, buf.baseAddress! + offset, buf.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno)); return
                }
                offset += n
            }
        }
        // close(2) can report a delayed write error (NFS, quota): it counts as a failure.
        if close(fd) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(tmp.path)
            Interrupts.untrack(temporary: tmp.path)
            throw CLIError("cannot write \(url.path): \(failure)")
        }
        try commit(tmp, to: url)
    }

    /// Writes all of `data` to an open descriptor (standard output for `-o -`).
    static func writeAll(_ data: Data, to fd: Int32) throws {
        try data.withUnsafeBytes { buf in
            var offset = 0
            while offset < buf.count {
                let n = write(fd, buf.baseAddress! + offset, buf.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw CLIError("cannot write to standard output: \(String(cString: strerror(errno)))")
                }
                offset += n
            }
        }
    }

    /// Renames a finished temporary file to its final name (replacing an older file).
    static func commit(_ tmp: URL, to url: URL) throws {
        defer { Interrupts.untrack(temporary: tmp.path) }
        if rename(tmp.path, url.path) != 0 {
            let e = String(cString: strerror(errno))
            unlink(tmp.path)
            throw CLIError("cannot write \(url.path): \(e)")
        }
    }

    /// Checks, before anything is rendered, that a file can be written at `url`: its name fits
    /// the file system (NAME_MAX, from pathconf) and the path PATH_MAX, and the folder has
    /// room for `bytes` (statvfs(3): blocks available to an unprivileged user × fragment
    /// size). Without this a name too long failed only when the first file was written —
    /// after the whole render, for a video or a single PNG (issue 17).
    static func checkDestination(_ url: URL, bytes: Int) throws {
        let dir = url.deletingLastPathComponent()
        let name = url.lastPathComponent
        let limit = nameMax(dir)
        if name.utf8.count > limit {
            throw CLIError("cannot write \(url.path): the file name is \(name.utf8.count) bytes long; this file system allows at most \(limit)")
        }
        if url.path.utf8.count >= Int(PATH_MAX) {
            throw CLIError("cannot write \(url.path.prefix(80))…: the path is \(url.path.utf8.count) bytes long; at most \(PATH_MAX - 1) are allowed")
        }
        var fs = statvfs()
        if statvfs(dir.path.isEmpty ? "." : dir.path, &fs) == 0 {
            let (free, o) = Int(clamping: fs.f_bavail).multipliedReportingOverflow(by: Int(clamping: fs.f_frsize))
            if !o, free < bytes {
                throw CLIError("cannot write \(url.path): \(free) bytes free in \(dir.path), one frame may need \(bytes)")
            }
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
