import Foundation
import CoreGraphics

/// A gradient's colour stops (`g`: `p` count, `k` flat [offset, r, g, b, …, offset, alpha …]).
struct LottieGradientModel: Sendable {
    var count: Int
    var stops: LVector?
    var type: Int
    var start: LVector?
    var end: LVector?
    var highlightLength: LVector?
    var highlightAngle: LVector?
    init(json: LottieJSON) {
        let g = json["g"]
        count = max(0, min(Int.clamped(g?["p"]?.number ?? 0), 256))
        stops = LVector(json: g?["k"])
        type = Int.clamped(json["t"]?.number ?? 1)
        start = LVector(json: json["s"])
        end = LVector(json: json["e"])
        highlightLength = LVector(json: json["h"])
        highlightAngle = LVector(json: json["a"])
    }
}

/// One shape item (`ty`): groups, path sources, paints, modifiers and group transforms.
struct LottieShapeItem: Sendable {
    enum Kind: Sendable {
        case group([LottieShapeItem])
        case rectangle(position: LVector?, size: LVector?, roundness: LVector?)
        case ellipse(position: LVector?, size: LVector?)
        case star(LottieStarModel)
        case path(LottieProperty<LottieBezier>?)
        case fill(color: LVector?, opacity: LVector?, evenOdd: Bool)
        case stroke(LottieStrokeModel)
        case gradientFill(LottieGradientModel, opacity: LVector?, evenOdd: Bool)
        case gradientStroke(LottieGradientModel, LottieStrokeModel)
        case trim(start: LVector?, end: LVector?, offset: LVector?, individually: Bool)
        case repeater(copies: LVector?, offset: LVector?, transform: LottieTransformModel, startOpacity: LVector?, endOpacity: LVector?)
        case roundedCorners(LVector?)
        case merge(mode: Int)
        case transform(LottieTransformModel)
        case unknown(String)
    }
    var kind: Kind
    var name: String
    var hidden: Bool
    /// Path direction (`d`: 3 is reversed) for rectangles, ellipses and stars.
    var reversed: Bool

    init(json: LottieJSON) {
        name = json["nm"]?.string ?? ""
        hidden = json["hd"]?.bool ?? false
        reversed = json["d"]?.number == 3
        let ty = json["ty"]?.string ?? "?"
        switch ty {
        case "gr": kind = .group((json["it"]?.array ?? []).map(LottieShapeItem.init(json:)))
        case "rc": kind = .rectangle(position: LVector(json: json["p"]), size: LVector(json: json["s"]), roundness: LVector(json: json["r"]))
        case "el": kind = .ellipse(position: LVector(json: json["p"]), size: LVector(json: json["s"]))
        case "sr": kind = .star(LottieStarModel(json: json))
        case "sh": kind = .path(LottieProperty<LottieBezier>(json: json["ks"]))
        case "fl": kind = .fill(color: LVector(json: json["c"]), opacity: LVector(json: json["o"]), evenOdd: json["r"]?.number == 2)
        case "st": kind = .stroke(LottieStrokeModel(json: json))
        case "gf": kind = .gradientFill(LottieGradientModel(json: json), opacity: LVector(json: json["o"]), evenOdd: json["r"]?.number == 2)
        case "gs": kind = .gradientStroke(LottieGradientModel(json: json), LottieStrokeModel(json: json))
        case "tm": kind = .trim(start: LVector(json: json["s"]), end: LVector(json: json["e"]), offset: LVector(json: json["o"]),
                                individually: json["m"]?.number == 2)
        case "rp":
            let tr = json["tr"]
            kind = .repeater(copies: LVector(json: json["c"]), offset: LVector(json: json["o"]), transform: LottieTransformModel(json: tr),
                             startOpacity: LVector(json: tr?["so"]), endOpacity: LVector(json: tr?["eo"]))
        case "rd": kind = .roundedCorners(LVector(json: json["r"]))
        case "mm": kind = .merge(mode: Int.clamped(json["mm"]?.number ?? 1))
        case "tr": kind = .transform(LottieTransformModel(json: json))
        default: kind = .unknown(ty)
        }
    }
}

/// A polystar (`sr`): star (`sy` 1) or polygon (2).
struct LottieStarModel: Sendable {
    var isStar: Bool
    var position: LVector?
    var points: LVector?
    var rotation: LVector?
    var outerRadius: LVector?
    var innerRadius: LVector?
    var outerRoundness: LVector?
    var innerRoundness: LVector?
    init(json: LottieJSON) {
        isStar = (json["sy"]?.number ?? 1) != 2
        position = LVector(json: json["p"]); points = LVector(json: json["pt"]); rotation = LVector(json: json["r"])
        outerRadius = LVector(json: json["or"]); innerRadius = LVector(json: json["ir"])
        outerRoundness = LVector(json: json["os"]); innerRoundness = LVector(json: json["is"])
    }
}

/// A stroke's own fields (`st`, and the stroke part of `gs`).
struct LottieStrokeModel: Sendable {
    var color: LVector?
    var opacity: LVector?
    var width: LVector?
    var lineCap: Int
    var lineJoin: Int
    var miterLimit: Double
    /// Dashes (`d`): `n` "d" dash, "g" gap, "o" offset.
    var dashes: [(kind: String, value: LVector)]
    init(json: LottieJSON) {
        color = LVector(json: json["c"]); opacity = LVector(json: json["o"]); width = LVector(json: json["w"])
        lineCap = Int.clamped(json["lc"]?.number ?? 2)
        lineJoin = Int.clamped(json["lj"]?.number ?? 2)
        miterLimit = json["ml"]?.number ?? json["ml2"]?["k"]?.number ?? 4
        dashes = (json["d"]?.array ?? []).compactMap { d in
            guard let n = d["n"]?.string, let v = LVector(json: d["v"]) else { return nil }
            return (n, v)
        }
    }
}
