// GIF (GIF89a spec, https://www.w3.org/Graphics/GIF/spec-gif89a.txt). The block structure is
// walked here (cheap: no decompression), so the frame count, delays and disposal methods are
// known without decoding; giflib decompresses one frame's LZW data at a time (DGifGetImageDesc +
// DGifGetLine, read from the frame's own offset through a read callback), and frames are
// composed here on a canvas with the disposal methods of §23.
internal import CGIF
import CoreGraphics
import Foundation

/// One image of a GIF, from its descriptor and the graphic control extension before it.
struct GIFFrameRecord: Sendable {
    /// Offset of the image separator (0x2C).
    var descriptorOffset: Int
    var x: Int, y: Int, width: Int, height: Int
    var interlaced: Bool
    /// Offset and entry count of the colour table the frame uses (local, else global); nil if none.
    var colorTable: (offset: Int, count: Int)?
    /// 0/1: leave in place; 2: restore the frame's area to transparent; 3: restore the previous canvas.
    var disposal: Int
    var transparentIndex: Int?
    var delayHundredths: Int
    /// False when the file ends inside the frame's data.
    var complete: Bool
}

struct GIFStructure: Sendable {
    var width: Int
    var height: Int
    var frames: [GIFFrameRecord] = []
    var loopCount: Int?

    /// Walks the blocks (§17–§27). Stops at the trailer, at an unknown block (trailing bytes are
    /// common) or at the end of the data; a frame cut off by the end is kept, marked incomplete.
    static func scan(_ b: UnsafeRawBufferPointer) -> Result<GIFStructure, DecodeFailure> {
        guard b.count >= 13 else { return .failure(.invalid("GIF header cut off")) }
        func le16(_ i: Int) -> Int { Int(b[i]) | Int(b[i + 1]) << 8 }
        var g = GIFStructure(width: le16(6), height: le16(8))
        let packed = b[10]
        var i = 13
        var global: (offset: Int, count: Int)?
        if packed & 0x80 != 0 {
            let n = 1 << (Int(packed & 7) + 1)
            global = (i, n)
            i += 3 * n
        }
        guard i <= b.count else { return .failure(.invalid("GIF global colour table cut off")) }
        // The pending graphic control extension: (disposal, transparent index, delay).
        var control: (disposal: Int, transparent: Int?, delay: Int) = (0, nil, 0)
        /// Skips data sub-blocks from `j`; the offset after the terminator, or nil if cut off.
        func skipSubBlocks(_ start: Int) -> Int? {
            var j = start
            while j < b.count {
                let n = Int(b[j])
                j += 1
                if n == 0 { return j }
                j += n
            }
            return nil
        }
        scanning: while i < b.count {
            switch b[i] {
            case 0x21:  // extension
                guard i + 2 <= b.count else { break scanning }
                let label = b[i + 1]
                let body = i + 2
                if label == 0xF9, body + 5 <= b.count, b[body] >= 4 {
                    let p = b[body + 1]
                    control = (Int(p >> 2) & 7, p & 1 != 0 ? Int(b[body + 4]) : nil, le16(body + 2))
                } else if label == 0xFF, body + 12 <= b.count, b[body] == 11,
                          Array(b[(body + 1)..<(body + 12)]) == Array("NETSCAPE2.0".utf8),
                          body + 16 <= b.count, b[body + 12] >= 3, b[body + 13] == 1 {
                    g.loopCount = le16(body + 14)
                }
                guard let next = skipSubBlocks(body) else { break scanning }
                i = next
            case 0x2C:  // image descriptor
                guard i + 10 <= b.count else { break scanning }
                let p = b[i + 9]
                var record = GIFFrameRecord(
                    descriptorOffset: i, x: le16(i + 1), y: le16(i + 3), width: le16(i + 5), height: le16(i + 7),
                    interlaced: p & 0x40 != 0, colorTable: global, disposal: control.disposal,
                    transparentIndex: control.transparent, delayHundredths: control.delay, complete: false)
                control = (0, nil, 0)
                var j = i + 10
                if p & 0x80 != 0 {
                    let n = 1 << (Int(p & 7) + 1)
                    record.colorTable = (j, n)
                    j += 3 * n
                }
                j += 1  // LZW minimum code size
                if j <= b.count, let next = skipSubBlocks(j) {
                    record.complete = true
                    g.frames.append(record)
                    i = next
                } else {
                    g.frames.append(record)
                    break scanning
                }
            default:  // 0x3B trailer, or bytes that are not a block
                break scanning
            }
        }
        return .success(g)
    }
}

/// The canvas between frames: its pixels after frame `next - 1` and that frame's disposal.
struct GIFCanvasState: Sendable {
    var next: Int
    var pixels: [UInt8]
}

/// giflib reads through this: the whole file, and where the next read starts.
private final class GIFReadCursor {
    let base: UnsafePointer<UInt8>
    let count: Int
    var position = 0
    init(base: UnsafePointer<UInt8>, count: Int) { self.base = base; self.count = count }
}

enum GIFCodec {
    /// The canvas after frame `index` is drawn (premultiplied RGBA8; transparent where no frame
    /// drew), and the state after its disposal, for the next call. Starts from `cached` when it
    /// lies at or before `index`, else from frame 0 on a transparent canvas (browsers' and
    /// Apple's practice; the background colour index is ignored).
    static func compose(_ data: Data, _ g: GIFStructure, index: Int, cached: GIFCanvasState?)
        -> Result<(CGImage, GIFCanvasState), DecodeFailure> {
        guard pixelCountAcceptable(g.width, g.height) else { return .failure(.tooLarge("GIF", g.width, g.height)) }
        return data.withUnsafeBytes { b -> Result<(CGImage, GIFCanvasState), DecodeFailure> in
            let cursor = GIFReadCursor(base: b.baseAddress!.assumingMemoryBound(to: UInt8.self), count: b.count)
            var error: Int32 = 0
            let read: InputFunc = { gif, buffer, n in
                guard let gif, let buffer, let user = gif.pointee.UserData else { return 0 }
                let c = Unmanaged<GIFReadCursor>.fromOpaque(user).takeUnretainedValue()
                let k = max(0, min(Int(n), c.count - c.position))
                buffer.update(from: c.base + c.position, count: k)
                c.position += k
                return Int32(k)
            }
            let user = Unmanaged.passUnretained(cursor).toOpaque()
            guard let gif = withExtendedLifetime(cursor, { DGifOpen(user, read, &error) }) else {
                return .failure(.invalid("GIF header rejected by giflib: \(errorText(error))"))
            }
            defer { _ = withExtendedLifetime(cursor) { DGifCloseFile(gif, &error) } }

            var state = (cached.map { $0.next <= index } ?? false) ? cached!
                : GIFCanvasState(next: 0, pixels: [UInt8](repeating: 0, count: g.width * g.height * 4))
            var result: [UInt8] = []
            for k in state.next...index {
                let f = g.frames[k]
                guard f.complete else { return .failure(.invalid("GIF frame \(k) is cut off (the file ends inside it)")) }
                guard let table = f.colorTable else { return .failure(.invalid("GIF frame \(k) has no colour table")) }
                guard f.width == 0 || f.height == 0 || pixelCountAcceptable(f.width, f.height) else {
                    return .failure(.tooLarge("GIF frame \(k)", f.width, f.height))
                }
                let saved = f.disposal == 3 ? state.pixels : nil
                if let failure = drawFrame(gif, cursor, b, f, table, g, &state.pixels) {
                    return .failure(.invalid("GIF frame \(k): \(failure)"))
                }
                if k == index { result = state.pixels }
                switch f.disposal {
                case 2: clear(f, g, &state.pixels)
                case 3: state.pixels = saved!
                default: break
                }
                state.next = k + 1
            }
            let image = CGImage(width: g.width, height: g.height, premultipliedRGBA: result, alphaInfo: .premultipliedLast,
                                shouldInterpolate: true, intent: .defaultIntent)
            return .success((image, state))
        }
    }

    /// Decodes one frame's rows with giflib and paints its non-transparent pixels (opaque
    /// colours from the table; an index past the table's end is left transparent) inside the
    /// canvas (parts outside it are clipped, §20). Returns giflib's error text on failure.
    private static func drawFrame(_ gif: UnsafeMutablePointer<GifFileType>, _ cursor: GIFReadCursor,
                                  _ b: UnsafeRawBufferPointer, _ f: GIFFrameRecord,
                                  _ table: (offset: Int, count: Int), _ g: GIFStructure,
                                  _ canvas: inout [UInt8]) -> String? {
        guard f.width > 0, f.height > 0 else { return nil }
        cursor.position = f.descriptorOffset + 1  // DGifGetImageDesc reads after the separator
        guard DGifGetImageDesc(gif) == GIF_OK else { return errorText(gif.pointee.Error) }
        var row = [GifPixelType](repeating: 0, count: f.width)
        // Interlaced rows arrive in four passes (§20, appendix E): every 8th from 0, every 8th
        // from 4, every 4th from 2, every 2nd from 1.
        let passes = f.interlaced ? [(0, 8), (4, 8), (2, 4), (1, 2)] : [(0, 1)]
        for (start, step) in passes {
            var y = start
            while y < f.height {
                let ok = row.withUnsafeMutableBufferPointer { DGifGetLine(gif, $0.baseAddress, Int32(f.width)) }
                guard ok == GIF_OK else { return errorText(gif.pointee.Error) }
                let cy = f.y + y
                if cy < g.height {
                    for x in 0..<f.width {
                        let cx = f.x + x
                        guard cx < g.width else { break }
                        let index = Int(row[x])
                        if index == f.transparentIndex || index >= table.count { continue }
                        let t = table.offset + 3 * index
                        guard t + 3 <= b.count else { continue }
                        let o = (cy * g.width + cx) * 4
                        canvas[o] = b[t]; canvas[o + 1] = b[t + 1]; canvas[o + 2] = b[t + 2]; canvas[o + 3] = 255
                    }
                }
                y += step
            }
        }
        return nil
    }

    /// Disposal method 2: the frame's area (clipped to the canvas) back to transparent.
    private static func clear(_ f: GIFFrameRecord, _ g: GIFStructure, _ canvas: inout [UInt8]) {
        let x1 = min(f.x + f.width, g.width), y1 = min(f.y + f.height, g.height)
        guard f.x < x1, f.y < y1 else { return }
        for y in f.y..<y1 {
            let o = (y * g.width + f.x) * 4
            for i in o..<(o + (x1 - f.x) * 4) { canvas[i] = 0 }
        }
    }

    private static func errorText(_ code: Int32) -> String {
        guard let s = GifErrorString(code) else { return "giflib error \(code)" }
        return String(cString: s)
    }
}
