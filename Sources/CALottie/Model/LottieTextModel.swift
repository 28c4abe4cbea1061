import Foundation
import CoreGraphics

/// A text layer's `t` (bodymovin's text data): the text document keyframes (`d.k`), each a
/// document held from its frame `t` until the next; `a` animators and `p` text on a path
/// (reported, not reproduced).
struct LottieTextModel: Sendable {
    var documents: [(frame: Double, document: LottieTextDocument)]
    var animatorCount: Int
    var hasPath: Bool

    init(json: LottieJSON?) {
        var docs: [(frame: Double, document: LottieTextDocument)] = []
        for k in json?["d"]?["k"]?.array ?? [] {
            guard let s = k["s"], case .object = s else { continue }
            docs.append((k["t"]?.number ?? 0, LottieTextDocument(json: s)))
        }
        documents = docs.sorted { $0.frame < $1.frame }
        animatorCount = json?["a"]?.array?.count ?? 0
        hasPath = json?["p"]?["m"] != nil
    }

    /// The document shown at frame `f`: the last keyframe at or before it (the first before any).
    func document(at f: Double) -> LottieTextDocument? {
        documents.last { $0.frame <= f }?.document ?? documents.first?.document
    }
}

/// One text document (`s` of a `d.k` keyframe): the text and how it is set.
struct LottieTextDocument: Sendable, Equatable {
    var text: String
    var fontName: String
    var size: Double
    /// `j`: 0 left, 1 right, 2 centre, 3–6 justified (last line left, right, centred, full).
    var justification: Int
    /// `tr`: tracking in thousandths of an em.
    var tracking: Double
    /// `lh`: the distance between baselines.
    var lineHeight: Double
    /// `ls`: baseline shift (up).
    var baselineShift: Double
    var fillColor: LottieVector?
    var strokeColor: LottieVector?
    var strokeWidth: Double
    var strokeOverFill: Bool
    /// `ps`, `sz`: a text box (top-left corner, size) whose width wraps the lines.
    var boxPosition: CGPoint?
    var boxSize: CGSize?
    /// `ca`: 1 all caps, 2 small caps.
    var caps: Int

    init(json: LottieJSON) {
        // After Effects separates lines with CR (ETX in some exports); LF is accepted too.
        let raw = json["t"]?.string ?? ""
        text = String(raw.map { $0 == "\r" || $0 == "\u{3}" ? "\n" : $0 }).replacingOccurrences(of: "\r\n", with: "\n")
        fontName = json["f"]?.string ?? ""
        size = min(max(json["s"]?.number ?? 12, 0), 10_000)
        justification = json["j"]?.number.map { Int.clamped($0) } ?? 0
        tracking = min(max(json["tr"]?.number ?? 0, -10_000), 10_000)
        lineHeight = min(max(json["lh"]?.number ?? size * 1.2, -100_000), 100_000)
        baselineShift = min(max(json["ls"]?.number ?? 0, -100_000), 100_000)
        fillColor = json["fc"]?.vector.map(LottieVector.init)
        strokeColor = json["sc"]?.vector.map(LottieVector.init)
        strokeWidth = min(max(json["sw"]?.number ?? 0, 0), 10_000)
        strokeOverFill = json["of"]?.bool ?? false
        if let p = json["ps"]?.vector, p.count >= 2 { boxPosition = CGPoint(x: p[0], y: p[1]) }
        if let s = json["sz"]?.vector, s.count >= 2, s[0] > 0, s[1] > 0 {
            boxSize = CGSize(width: min(s[0], 100_000), height: min(s[1], 100_000))
        }
        caps = json["ca"]?.number.map { Int.clamped($0) } ?? 0
    }
}

/// A font of the animation's `fonts.list`: `fName` (what documents name), family and style.
struct LottieFontModel: Sendable {
    var name: String
    var family: String
    var style: String
    init(json: LottieJSON) {
        name = json["fName"]?.string ?? ""
        family = json["fFamily"]?.string ?? ""
        style = json["fStyle"]?.string ?? ""
    }
}

/// A glyph of the animation's `chars`: its outline as shape items in a 100-unit em (scaled by
/// size / 100), and its advance `w` in the same units.
struct LottieGlyphModel: Sendable {
    var character: String
    var family: String
    var style: String
    var size: Double
    var advance: Double
    var shapes: [LottieShapeItem]
    init(json: LottieJSON) {
        character = json["ch"]?.string ?? ""
        family = json["fFamily"]?.string ?? ""
        style = json["style"]?.string ?? ""
        size = json["size"]?.number ?? 100
        advance = json["w"]?.number ?? 0
        shapes = (json["data"]?["shapes"]?.array ?? []).map(LottieShapeItem.init(json:))
    }
}
