import Foundation

/// A one-layer Lottie document: `layers` and `assets` are JSON array bodies.
func lottie(w: Int = 100, h: Int = 100, fr: Double = 10, ip: Double = 0, op: Double = 100,
            layers: String, assets: String = "") -> Data {
    Data(#"{"v":"5.7.0","fr":\#(fr),"ip":\#(ip),"op":\#(op),"w":\#(w),"h":\#(h),"assets":[\#(assets)],"layers":[\#(layers)]}"#.utf8)
}

/// A shape layer (`ty` 4) with the given transform and shape items.
func shapeLayer(ind: Int = 1, ks: String = #"{"p":{"k":[0,0]}}"#, shapes: String, extra: String = "") -> String {
    #"{"ty":4,"ind":\#(ind),"ip":0,"op":100,"st":0,"ks":\#(ks),"shapes":[\#(shapes)]\#(extra.isEmpty ? "" : "," + extra)}"#
}

/// Renders `animation` at `frame` at its own size, scale 1, on a transparent background.
func render(_ animation: LottieAnimation, frame: Double, size: CGSize? = nil) throws -> CGImage {
    let layer = LottieAnimationLayer(animation: animation)
    layer.anchorPoint = .zero
    layer.position = .zero
    layer.bounds = CGRect(origin: .zero, size: size ?? animation.size)
    layer.layoutIfNeeded()
    layer.currentFrame = frame
    let r = try CARenderer(offscreenSize: size ?? animation.size, scale: 1, options: .init(backend: .openGL))
    r.layer = layer
    r.beginFrame(atTime: 0)
    try r.renderChecked()
    r.endFrame()
    return try r.makeImage()
}

func pixel(_ img: CGImage, _ x: Int, _ y: Int) -> [Int] {
    let p = img.pixel(x: x, y: y)
    return [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
}
