import Foundation
import CoreGraphics

typealias LVector = LottieProperty<LottieVector>

/// Decoding helpers: a field of the wrong type is treated as missing, so one odd value does
/// not reject the whole file (the builder reports what it had to skip).
extension KeyedDecodingContainer {
    func lenient<T: Decodable>(_ type: T.Type, _ key: Key) -> T? {
        (try? decodeIfPresent(type, forKey: key)) ?? nil
    }
    func number(_ key: Key) -> Double? { lenient(LottieJSON.self, key)?.number }
    func json(_ key: Key) -> LottieJSON? { lenient(LottieJSON.self, key) }
}

struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ s: String) { stringValue = s }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// The top level of a bodymovin file.
struct LottieAnimationModel: Decodable, Sendable {
    var version: String
    var frameRate: Double
    var inPoint: Double
    var outPoint: Double
    var width: Double
    var height: Double
    var layers: [LottieLayerModel]
    var assets: [LottieAssetModel]
    var markers: [LottieMarkerModel]
    /// `fonts.list` and `chars`: what text layers' documents name (LottieTextModel.swift).
    var fonts: [LottieFontModel]
    var glyphs: [LottieGlyphModel]

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        guard let fr = c.number(AnyKey("fr")), let ip = c.number(AnyKey("ip")), let op = c.number(AnyKey("op")) else {
            throw LottieError.notLottie("the top level needs numbers fr, ip and op")
        }
        guard c.contains(AnyKey("layers")) else { throw LottieError.notLottie("the top level has no layers") }
        version = c.lenient(String.self, AnyKey("v")) ?? "?"
        frameRate = fr; inPoint = ip; outPoint = op
        width = c.number(AnyKey("w")) ?? 0
        height = c.number(AnyKey("h")) ?? 0
        layers = (try? c.decode([LottieLayerModel].self, forKey: AnyKey("layers"))) ?? []
        assets = c.lenient([LottieAssetModel].self, AnyKey("assets")) ?? []
        markers = c.lenient([LottieMarkerModel].self, AnyKey("markers")) ?? []
        fonts = (c.json(AnyKey("fonts"))?["list"]?.array ?? []).map(LottieFontModel.init(json:))
        glyphs = (c.json(AnyKey("chars"))?.array ?? []).map(LottieGlyphModel.init(json:))
    }
}

/// A named time range (`markers`: `cm` name, `tm` start frame, `dr` duration in frames).
struct LottieMarkerModel: Decodable, Sendable {
    var name: String
    var frame: Double
    var duration: Double
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        name = c.lenient(String.self, AnyKey("cm")) ?? ""
        frame = c.number(AnyKey("tm")) ?? 0
        duration = c.number(AnyKey("dr")) ?? 0
    }
}

/// An asset: a precomposition (`layers`) or an image (`p`, `u`, `w`, `h`, `e`).
struct LottieAssetModel: Decodable, Sendable {
    var id: String
    var layers: [LottieLayerModel]?
    var width: Double
    var height: Double
    var path: String?
    var directory: String?
    var frameRate: Double?
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        if let s = c.lenient(String.self, AnyKey("id")) { id = s } else { id = c.number(AnyKey("id")).map { String(Int.clamped($0)) } ?? "" }
        layers = c.lenient([LottieLayerModel].self, AnyKey("layers"))
        width = c.number(AnyKey("w")) ?? 0
        height = c.number(AnyKey("h")) ?? 0
        path = c.lenient(String.self, AnyKey("p"))
        directory = c.lenient(String.self, AnyKey("u"))
        frameRate = c.number(AnyKey("fr"))
    }
}

/// A layer's transform (`ks`, and a shape group's `tr`): anchor, position (maybe split),
/// scale (percent), rotation (degrees), skew and skew axis (degrees), opacity (percent).
struct LottieTransformModel: Sendable {
    var anchor: LVector?
    var position: LVector?
    var positionX: LVector?
    var positionY: LVector?
    var scale: LVector?
    var rotation: LVector?
    var skew: LVector?
    var skewAxis: LVector?
    var opacity: LVector?

    init() {}
    init(json: LottieJSON?) {
        guard let j = json else { return }
        anchor = LVector(json: j["a"])
        if let p = j["p"], p["s"]?.bool == true {
            positionX = LVector(json: p["x"]); positionY = LVector(json: p["y"])
        } else {
            position = LVector(json: j["p"])
        }
        scale = LVector(json: j["s"])
        rotation = LVector(json: j["r"]) ?? LVector(json: j["rz"])
        skew = LVector(json: j["sk"])
        skewAxis = LVector(json: j["sa"])
        opacity = LVector(json: j["o"])
    }

    var expressions: [(String, String)] {
        let all: [(String, LVector?)] = [("anchor", anchor), ("position", position), ("position x", positionX), ("position y", positionY),
                                         ("scale", scale), ("rotation", rotation), ("skew", skew), ("skew axis", skewAxis), ("opacity", opacity)]
        return all.compactMap { name, p in p?.expression.map { (name, $0) } }
    }
}

/// A layer mask (`masksProperties`): mode, inverted, path, opacity, expansion.
struct LottieMaskModel: Sendable {
    var mode: String
    var inverted: Bool
    var path: LottieProperty<LottieBezier>?
    var opacity: LVector?
    var expansion: LVector?
    init(json: LottieJSON) {
        mode = json["mode"]?.string ?? "a"
        inverted = json["inv"]?.bool ?? false
        path = LottieProperty<LottieBezier>(json: json["pt"])
        opacity = LVector(json: json["o"])
        expansion = LVector(json: json["x"])
    }
}

/// One layer (`ty`: 0 precomp, 1 solid, 2 image, 3 null, 4 shape, 5 text; others unknown).
struct LottieLayerModel: Decodable, Sendable {
    var type: Int
    var name: String
    var index: Int?
    var parent: Int?
    var inPoint: Double
    var outPoint: Double
    var startTime: Double
    var timeStretch: Double
    var transform: LottieTransformModel
    var hidden: Bool
    var autoOrient: Bool
    var blendMode: Int
    var refID: String?
    var width: Double
    var height: Double
    var solidColor: String?
    var solidWidth: Double
    var solidHeight: Double
    var timeRemap: LVector?
    var shapes: [LottieShapeItem]
    var masks: [LottieMaskModel]
    var matteMode: Int
    var isMatteSource: Bool
    var matteParent: Int?
    var hasEffects: Bool
    var is3D: Bool
    /// A text layer's (`ty` 5) text data `t`.
    var text: LottieTextModel?

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: AnyKey.self)
        type = c.number(AnyKey("ty")).map { Int.clamped($0) } ?? -1
        name = c.lenient(String.self, AnyKey("nm")) ?? ""
        index = c.number(AnyKey("ind")).map { Int.clamped($0) }
        parent = c.number(AnyKey("parent")).map { Int.clamped($0) }
        inPoint = c.number(AnyKey("ip")) ?? 0
        outPoint = c.number(AnyKey("op")) ?? 0
        startTime = c.number(AnyKey("st")) ?? 0
        let sr = c.number(AnyKey("sr")) ?? 1
        timeStretch = sr == 0 ? 1 : sr
        transform = LottieTransformModel(json: c.json(AnyKey("ks")))
        hidden = c.json(AnyKey("hd"))?.bool ?? false
        autoOrient = c.json(AnyKey("ao"))?.bool ?? false
        blendMode = c.number(AnyKey("bm")).map { Int.clamped($0) } ?? 0
        refID = c.lenient(String.self, AnyKey("refId"))
        width = c.number(AnyKey("w")) ?? 0
        height = c.number(AnyKey("h")) ?? 0
        solidColor = c.lenient(String.self, AnyKey("sc"))
        solidWidth = c.number(AnyKey("sw")) ?? 0
        solidHeight = c.number(AnyKey("sh")) ?? 0
        timeRemap = LVector(json: c.json(AnyKey("tm")))
        shapes = (c.json(AnyKey("shapes"))?.array ?? []).map(LottieShapeItem.init(json:))
        masks = (c.json(AnyKey("masksProperties"))?.array ?? []).map(LottieMaskModel.init(json:))
        matteMode = c.number(AnyKey("tt")).map { Int.clamped($0) } ?? 0
        isMatteSource = c.json(AnyKey("td"))?.bool ?? false
        matteParent = c.number(AnyKey("tp")).map { Int.clamped($0) }
        hasEffects = !(c.json(AnyKey("ef"))?.array ?? []).isEmpty
        is3D = c.json(AnyKey("ddd"))?.bool ?? false
        text = type == 5 ? LottieTextModel(json: c.json(AnyKey("t"))) : nil
    }
}
