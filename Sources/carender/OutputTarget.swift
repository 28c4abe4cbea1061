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
    /// A JPEG or WebP still (`--quality`).
    case still(URL, StillFormat)
    /// `-o -`: standard output; a PNG (one frame) or a video stream of `--format`.
    case stdout(VideoFormat?)

    init(path: String, format: String? = nil) throws {
        guard !path.isEmpty else { throw CLIError.usage("-o: the output path is empty") }
        if path == "-" {
            guard let format, format.lowercased() != "png" else { self = .stdout(nil); return }
            guard let f = VideoFormat(rawValue: format.lowercased()) else {
                throw CLIError.usage("--format \(format): png, \(VideoFormat.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            self = .stdout(f)
            return
        }
        let url = URL(fileURLWithPath: path)
        let ext = url.pathExtension.lowercased()
        if format != nil { throw CLIError.usage("--format is for -o - (standard output); a file's extension says its format") }
        if path.contains("%") {
            guard ext == "png" else {
                throw CLIError.usage("-o \(path): a numbered sequence must end in .png (e.g. out/%04d.png)")
            }
            self = .sequence(try FramePattern(path))
            return
        }
        switch ext {
        case "png": self = .png(url)
        case "jpg", "jpeg": self = .still(url, .jpeg)
        case "webp": self = .still(url, .webp)
        case "": throw CLIError.usage("-o \(path): no extension; use \(Self.forms)")
        default:
            guard let f = VideoFormat(rawValue: ext) else { throw CLIError.usage("-o \(path): unknown extension .\(ext); use \(Self.forms)") }
            self = .video(url, f)
        }
    }

    /// One image: a PNG, JPEG or WebP file, or a PNG on standard output.
    var isSingleImage: Bool {
        switch self {
        case .png, .still, .stdout(nil): return true
        default: return false
        }
    }

    static let forms = ".png, .jpg, .webp, a numbered out/%04d.png, .mp4, .mov, .mkv, .webm, .gif, .apng, or - (standard output)"

    /// The folder files are written into (must exist or be creatable, and be writable); nil
    /// for standard output.
    var directory: URL? {
        switch self {
        case .stdout: return nil
        case .png(let u), .video(let u, _), .still(let u, _): return u.deletingLastPathComponent()
        case .sequence(let p): return URL(fileURLWithPath: p.path(for: 0)).deletingLastPathComponent()
        }
    }
}

/// Stills other than PNG, written through ImageIO's `CGImageDestination`.
enum StillFormat: String, Equatable {
    case jpeg, webp
    var typeIdentifier: String { self == .jpeg ? "public.jpeg" : "org.webmproject.webp" }
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

/// Video containers carender writes through ffmpeg (`-o` extension or `--format`), and the
/// codecs each holds.
enum VideoFormat: String, Equatable, CaseIterable {
    case mp4, mov, mkv, webm, gif, apng

    /// ffmpeg's muxer name.
    var muxer: String { self == .mkv ? "matroska" : rawValue }

    /// The codec used when `--codec` is not given: H.264 for MP4/MKV, ProRes 4444 for MOV
    /// (what studios exchange, with alpha), VP9 with alpha for WebM.
    var defaultCodec: VideoCodec {
        switch self {
        case .mp4, .mkv: return .h264
        case .mov: return .prores
        case .webm: return .vp9
        case .gif: return .gif
        case .apng: return .apng
        }
    }

    var codecs: [VideoCodec] {
        switch self {
        case .mp4: return [.h264, .hevc, .av1, .vp9]
        case .mov: return [.prores, .h264, .hevc]
        case .mkv: return [.h264, .hevc, .prores, .vp9, .av1]
        case .webm: return [.vp9, .av1]
        case .gif: return [.gif]
        case .apng: return [.apng]
        }
    }

    /// The audio encoder for `--audio` (nil: the container has no audio).
    var audioCodec: String? {
        switch self {
        case .mp4, .mov, .mkv: return "aac"
        case .webm: return "libopus"
        case .gif, .apng: return nil
        }
    }
}
