import Foundation

/// `--codec`: the video codecs carender drives ffmpeg's encoders for.
enum VideoCodec: String, CaseIterable {
    case h264, hevc, prores, vp9, av1, gif, apng

    /// The ffmpeg encoder (Debian's ffmpeg has all of them; tools/install-deps.sh installs it).
    var encoder: String {
        switch self {
        case .h264: return "libx264"
        case .hevc: return "libx265"
        case .prores: return "prores_ks"
        case .vp9: return "libvpx-vp9"
        case .av1: return "libsvtav1"
        case .gif: return "gif"
        case .apng: return "apng"
        }
    }

    /// `--crf` range (the encoder's own scale; lower is better), nil where the codec has none.
    var crfRange: ClosedRange<Double>? {
        switch self {
        case .h264, .hevc: return 0...51
        case .vp9, .av1: return 0...63
        case .prores, .gif, .apng: return nil
        }
    }

    var defaultCRF: Double {
        switch self {
        case .h264: return 18
        case .hevc: return 20
        case .vp9: return 30
        case .av1: return 30
        default: return 0
        }
    }

    /// Whether frames go through a YUV conversion (and so get colour tags).
    var isYUV: Bool { self != .gif && self != .apng }
}

/// `--color`: the colour space of a YUV video. Frames are sRGB; both convert with the matrix
/// named and tag the stream with primaries, transfer, matrix and range (ITU-T H.273 code
/// points as ffmpeg names them), so players decode the colours that were rendered.
enum VideoColor: String, CaseIterable {
    /// BT.709 primaries (sRGB's), BT.709 matrix, limited ("tv") range, transfer tagged bt709:
    /// what players assume for HD SDR video. The sRGB-encoded values are stored as they are.
    case bt709
    /// BT.2100 PQ: BT.2020 primaries and non-constant-luminance matrix, SMPTE ST 2084 transfer,
    /// limited range, 10 bits or more. sRGB white maps to 203 cd/m² (ITU-R BT.2408's reference
    /// white); converted by zscale (zimg).
    case bt2020PQ = "bt2020-pq"

    /// ffmpeg's output tags: `-colorspace`, `-color_primaries`, `-color_trc`, `-color_range`.
    var tagArguments: [String] {
        switch self {
        case .bt709: return ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"]
        case .bt2020PQ: return ["-colorspace", "bt2020nc", "-color_primaries", "bt2020", "-color_trc", "smpte2084", "-color_range", "tv"]
        }
    }

    /// The filter that converts RGB to `pixFmt` with the same matrix and range as the tags say
    /// (without it swscale would use BT.601, issue 25), then marks the frames with the same
    /// tags (`setparams`): encoders that write colour into each frame (ProRes) read the
    /// frame's, not the stream's.
    func conversionFilter(pixFmt: String) -> String {
        switch self {
        case .bt709:
            return "scale=out_color_matrix=bt709:out_range=tv:flags=accurate_rnd+full_chroma_int,format=\(pixFmt),"
                + "setparams=range=tv:color_primaries=bt709:color_trc=bt709:colorspace=bt709"
        case .bt2020PQ:
            return "zscale=tin=iec61966-2-1:pin=bt709:min=gbr:rin=full:t=smpte2084:p=bt2020:m=bt2020nc:r=limited:npl=203,format=\(pixFmt),"
                + "setparams=range=tv:color_primaries=bt2020:color_trc=smpte2084:colorspace=bt2020nc"
        }
    }
}

/// An audio file muxed under the video, trimmed to the rendered range.
struct AudioTrack: Equatable {
    var path: String
    var start: Double
    var duration: Double
}

/// How a video is encoded: container, codec, quality, pixel format, colour, audio. Built from
/// the render options and checked before anything is rendered (`validate`), so an impossible
/// combination is a usage error, not an ffmpeg failure after the render.
struct VideoEncoding: Equatable {
    var format: VideoFormat
    var codec: VideoCodec
    var crf: Double?
    var bitrate: String?
    var pixFmt: String?
    var color: VideoColor = .bt709
    var audio: AudioTrack?
    /// Written to a pipe (`-o -`): MP4/MOV are fragmented, since a pipe cannot be seeked back.
    var streaming = false

    init(format: VideoFormat, codec: VideoCodec? = nil, crf: Double? = nil, bitrate: String? = nil,
         pixFmt: String? = nil, color: VideoColor = .bt709) throws {
        self.format = format
        self.codec = codec ?? format.defaultCodec
        self.crf = crf
        self.bitrate = bitrate
        self.pixFmt = pixFmt
        self.color = color
        try validate()
    }

    func validate() throws {
        guard format.codecs.contains(codec) else {
            throw CLIError.usage("--codec \(codec.rawValue): .\(format.rawValue) holds \(format.codecs.map(\.rawValue).joined(separator: ", "))")
        }
        if let crf {
            guard let r = codec.crfRange else { throw CLIError.usage("--crf: \(codec.rawValue) has no CRF (ProRes has fixed-rate profiles; GIF and APNG are lossless)") }
            guard r.contains(crf) else { throw CLIError.usage("--crf \(crf): \(codec.rawValue) takes \(Int(r.lowerBound))...\(Int(r.upperBound))") }
            if bitrate != nil { throw CLIError.usage("--crf and --bitrate exclude each other") }
        }
        if let bitrate {
            guard codec.crfRange != nil else { throw CLIError.usage("--bitrate: \(codec.rawValue) has no bitrate setting") }
            guard bitrate.range(of: #"^[0-9]+(\.[0-9]+)?[kKmM]?$"#, options: .regularExpression) != nil else {
                throw CLIError.usage("--bitrate \(bitrate): bits per second, e.g. 8M or 2500k")
            }
        }
        if let pixFmt {
            guard codec.isYUV else { throw CLIError.usage("--pix-fmt: \(codec.rawValue) chooses its own pixel format") }
            guard !pixFmt.isEmpty, pixFmt.count <= 32, pixFmt.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
                throw CLIError.usage("--pix-fmt \(pixFmt): an ffmpeg pixel format name such as yuv420p, yuv422p10le or yuva444p10le (ffmpeg -pix_fmts)")
            }
        }
        if color == .bt2020PQ {
            guard codec.isYUV else { throw CLIError.usage("--color bt2020-pq: \(codec.rawValue) stores sRGB; use a YUV codec (hevc, av1, vp9, prores, h264)") }
            guard Self.bitDepth(resolvedPixFmt) >= 10 else {
                throw CLIError.usage("--color bt2020-pq needs 10 bits or more; --pix-fmt \(resolvedPixFmt) has 8 (e.g. yuv420p10le)")
            }
        }
        if audio != nil, format.audioCodec == nil {
            throw CLIError.usage("--audio: .\(format.rawValue) has no audio track; use .mp4, .mov, .mkv or .webm")
        }
    }

    /// The pixel format written: `--pix-fmt`, else the codec's choice for the container.
    var resolvedPixFmt: String {
        if let pixFmt { return pixFmt }
        let deep = color == .bt2020PQ
        switch codec {
        case .h264: return deep ? "yuv420p10le" : "yuv420p"
        case .hevc: return deep ? "yuv420p10le" : "yuv420p"
        case .av1: return deep ? "yuv420p10le" : "yuv420p"
        case .prores: return "yuva444p10le"
        case .vp9:
            // VP9's alpha travels in Matroska/WebM block additions; MP4 has no place for it.
            if deep { return "yuv420p10le" }
            return format == .mp4 ? "yuv420p" : "yuva420p"
        case .gif: return "pal8"
        case .apng: return "rgba"
        }
    }

    /// Bits per sample of a pixel format name (`…10le` → 10); 8 when it names none.
    static func bitDepth(_ pixFmt: String) -> Int {
        for d in [16, 14, 12, 10, 9] where pixFmt.contains("p\(d)") || pixFmt.hasSuffix("\(d)le") || pixFmt.hasSuffix("\(d)be") { return d }
        return 8
    }

    /// Whether the video keeps alpha: the frames then go to ffmpeg as straight RGBA.
    var keepsAlpha: Bool {
        let p = resolvedPixFmt
        return p.hasPrefix("yuva") || p.hasPrefix("rgba") || p.hasPrefix("bgra") || p.hasPrefix("gbrap") || p.hasPrefix("argb") || p.hasPrefix("ya")
    }

    /// Chroma subsampling: 4:2:0 halves both sides, 4:2:2 the width (and 4:1:1 a quarter).
    var evenWidth: Bool { ["420", "422", "411"].contains { resolvedPixFmt.contains($0) } }
    var evenHeight: Bool { resolvedPixFmt.contains("420") }

    /// ffmpeg arguments after the inputs: maps, filters, codec, quality, tags, container.
    var outputArguments: [String] {
        var a: [String] = []
        if audio != nil {
            a += ["-map", "0:v:0", "-map", "1:a:0", "-c:a", format.audioCodec!, "-shortest"]
        }
        let pix = resolvedPixFmt
        switch codec {
        case .gif:
            a += ["-filter_complex", "[0:v]split[a][b];[a]palettegen=stats_mode=diff[p];[b][p]paletteuse=dither=sierra2_4a"]
        case .apng:
            a += ["-c:v", "apng", "-pix_fmt", "rgba", "-plays", "0"]
        default:
            a += ["-vf", color.conversionFilter(pixFmt: pix), "-c:v", codec.encoder]
            switch codec {
            case .h264: a += ["-preset", "veryfast"]
            case .hevc:
                a += ["-preset", "fast", "-x265-params", "log-level=error"]
                if format == .mp4 || format == .mov { a += ["-tag:v", "hvc1"] }   // QuickTime plays only hvc1
            case .vp9: a += ["-row-mt", "1", "-deadline", "good", "-cpu-used", "4"]
            case .av1: a += ["-preset", "8"]
            case .prores: a += ["-profile:v", keepsAlpha ? "4" : "3", "-vendor", "apl0"]   // 4444 / 422 HQ
            default: break
            }
            if let bitrate {
                a += ["-b:v", bitrate]
            } else if codec.crfRange != nil {
                a += ["-crf", String(Int((crf ?? codec.defaultCRF).rounded()))]
                if codec == .vp9 { a += ["-b:v", "0"] }   // libvpx: constant quality only with no target rate
            }
            a += color.tagArguments
        }
        if format == .mp4 || format == .mov {
            a += ["-movflags", streaming ? "frag_keyframe+empty_moov+default_base_moof" : "+faststart"]
        }
        if format == .apng { a += ["-f", "apng"] } else { a += ["-f", format.muxer] }
        return a
    }
}
