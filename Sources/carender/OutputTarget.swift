import Foundation

/// What `-o OUT` asks for, decided by its form:
/// - `name.png` — one PNG (one frame only);
/// - `dir/%04d.png` — a numbered PNG sequence (`%d` or `%0Nd`, N ≤ 9, once; `%%` is a literal
///   `%`), numbered by global frame index;
/// - `name.mp4` (H.264), `.webm` (VP9 with alpha), `.gif`, `.apng` — a video through ffmpeg.
enum OutputTarget: Equatable {
    case png(URL)
    case sequence(FramePattern)
    case video(URL, VideoFormat)

    init(path: String) throws {
        guard !path.isEmpty else { throw CLIError.usage("-o: the output path is empty") }
        let url = URL(fileURLWithPath: path)
        let ext = url.pathExtension.lowercased()
        if path.contains("%") {
            guard ext == "png" else {
                throw CLIError.usage("-o \(path): a numbered sequence must end in .png (e.g. out/%04d.png)")
            }
            self = .sequence(try FramePattern(path))
            return
        }
        switch ext {
        case "png": self = .png(url)
        case "mp4": self = .video(url, .mp4)
        case "webm": self = .video(url, .webm)
        case "gif": self = .video(url, .gif)
        case "apng": self = .video(url, .apng)
        case "":
            throw CLIError.usage("-o \(path): no extension; use .png, a numbered out/%04d.png, .mp4, .webm, .gif or .apng")
        default:
            throw CLIError.usage("-o \(path): unknown extension .\(ext); use .png, a numbered out/%04d.png, .mp4, .webm, .gif or .apng")
        }
    }

    /// The folder files are written into (must exist or be creatable, and be writable).
    var directory: URL {
        switch self {
        case .png(let u), .video(let u, _): return u.deletingLastPathComponent()
        case .sequence(let p): return URL(fileURLWithPath: p.path(for: 0)).deletingLastPathComponent()
        }
    }
}

/// A numbered file name: `prefix` + frame number (zero-padded to `width`) + `suffix`. Parsed
/// by hand (never handed to printf), so a hostile pattern cannot read memory.
struct FramePattern: Equatable {
    var prefix: String
    var width: Int
    var suffix: String

    init(_ pattern: String) throws {
        var prefix = "", suffix = "", width: Int?
        var chars = Array(pattern)[...]
        while let c = chars.popFirst() {
            if c != "%" { if width == nil { prefix.append(c) } else { suffix.append(c) }; continue }
            if chars.first == "%" { chars.removeFirst(); if width == nil { prefix.append("%") } else { suffix.append("%") }; continue }
            var digits = ""
            while let d = chars.first, d.isASCII, d.isNumber { digits.append(d); chars.removeFirst() }
            guard chars.popFirst() == "d" else {
                throw CLIError.usage("-o \(pattern): only %d or %0Nd (and %% for a literal %) may appear in a sequence pattern")
            }
            guard width == nil else { throw CLIError.usage("-o \(pattern): the frame number may appear only once") }
            guard digits.count <= 2, let w = Int(digits.isEmpty ? "0" : digits), w <= 9 else {
                throw CLIError.usage("-o \(pattern): a zero-padded width of 0...9 digits, e.g. %04d")
            }
            width = w
        }
        guard let width else { throw CLIError.usage("-o \(pattern): no %d in the pattern") }
        guard !suffix.contains("/") else { throw CLIError.usage("-o \(pattern): the frame number must be in the file name, not a folder") }
        self.prefix = prefix
        self.width = width
        self.suffix = suffix
    }

    func path(for frame: Int) -> String {
        let n = String(frame)
        return prefix + String(repeating: "0", count: max(0, width - n.count)) + n + suffix
    }

    /// The same pattern in ffmpeg's image2 syntax (`%04d`, `%%`), for joining recipes.
    var ffmpegPattern: String {
        prefix.replacingOccurrences(of: "%", with: "%%") + "%0\(width)d" + suffix.replacingOccurrences(of: "%", with: "%%")
    }
}

/// Video containers carender writes through ffmpeg, and how.
enum VideoFormat: String, Equatable, CaseIterable {
    case mp4, webm, gif, apng

    /// ffmpeg arguments after the raw-video input: codec, pixel format and container.
    var encoderArguments: [String] {
        switch self {
        case .mp4: return ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-preset", "veryfast", "-crf", "18", "-movflags", "+faststart", "-f", "mp4"]
        case .webm: return ["-c:v", "libvpx-vp9", "-pix_fmt", "yuva420p", "-b:v", "0", "-crf", "30", "-f", "webm"]
        case .gif: return ["-filter_complex", "[0:v]split[a][b];[a]palettegen=stats_mode=diff[p];[b][p]paletteuse=dither=sierra2_4a", "-f", "gif"]
        case .apng: return ["-c:v", "apng", "-pix_fmt", "rgba", "-plays", "0", "-f", "apng"]
        }
    }

    /// Whether the format keeps alpha. Those that do get straight (un-premultiplied) RGBA;
    /// the others get the premultiplied frame with alpha ignored (`rgb0`): the picture over
    /// black, as a premultiplied image composites.
    var keepsAlpha: Bool { self == .webm || self == .apng }

    /// H.264 in yuv420p needs even sizes.
    var needsEvenSize: Bool { self == .mp4 || self == .webm }
}
