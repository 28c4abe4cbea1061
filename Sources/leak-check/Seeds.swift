import CoreGraphics
import Foundation
import ImageIO

/// Small valid documents the malformed inputs are cut from: each reader's common paths (SVG
/// paint servers, `<use>`, CSS, filters and masks; scene layers and animations; Lottie shape
/// layers with keyframes; the image formats ImageIO decodes). Written here rather than read from
/// the test folders so the tool runs from an installed binary too.
enum Seeds {
    static let svg: [String] = [
        """
        <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="64" height="64" viewBox="0 0 64 64">
          <defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="red"/><stop offset="1" stop-color="#00f" stop-opacity=".5"/></linearGradient>
          <clipPath id="c"><circle cx="32" cy="32" r="20"/></clipPath></defs>
          <g transform="translate(2 3) rotate(10)" clip-path="url(#c)"><rect width="40" height="30" rx="4" fill="url(#g)"/>
          <path d="M10 10 C20 0 40 20 50 10 S60 40 30 50 Z" stroke="black" stroke-dasharray="3 1" fill="none"/></g>
          <use xlink:href="#c" x="5"/>
        </svg>
        """,
        """
        <?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="48" height="48">
          <style>.a { fill: green; stroke: #123 } #b rect { opacity: .5 }</style>
          <filter id="f"><feGaussianBlur stdDeviation="2" result="b"/><feOffset dx="2" dy="2"/><feMerge><feMergeNode in="b"/><feMergeNode in="SourceGraphic"/></feMerge></filter>
          <mask id="m"><rect width="48" height="24" fill="white"/></mask>
          <g id="b" class="a" filter="url(#f)" mask="url(#m)"><rect x="4" y="4" width="30" height="30"/><ellipse cx="30" cy="30" rx="10" ry="6"/></g>
          <polyline points="1,1 10,20 30,5" marker-end="url(#x)"/><text x="4" y="40" font-size="10">Hi &amp; bye</text>
        </svg>
        """,
        """
        <svg xmlns="http://www.w3.org/2000/svg" width="32" height="32"><pattern id="p" width="8" height="8" patternUnits="userSpaceOnUse">
          <rect width="4" height="4" fill="#f80"/></pattern><radialGradient id="r" fx=".3"><stop offset=".2" stop-color="gold"/><stop offset="1"/></radialGradient>
          <rect width="32" height="16" fill="url(#p)"/><circle cx="16" cy="24" r="8" fill="url(#r)" style="mix-blend-mode: multiply"/>
          <switch><g systemLanguage="en"><line x1="0" y1="0" x2="32" y2="32" stroke="blue"/></g></switch></svg>
        """,
    ]

    static let scene: [String] = [
        """
        {"format": "ca-scene", "version": 1, "size": [64, 48], "duration": 2,
         "root": {"frame": [0, 0, 64, 48], "backgroundColor": "#202020", "sublayers": [
           {"class": "CAShapeLayer", "frame": [4, 4, 30, 20], "path": "M0 0 L30 0 L15 20 Z", "fillColor": "#ff8000",
            "animations": [{"class": "CABasicAnimation", "keyPath": "position.x", "fromValue": 10, "toValue": 40, "duration": 1, "timingFunction": "easeInEaseOut"}]},
           {"frame": [30, 20, 20, 20], "cornerRadius": 5, "backgroundColor": [0.2, 0.4, 1, 1], "opacity": 0.8,
            "shadowOpacity": 0.5, "shadowRadius": 3, "borderWidth": 1, "borderColor": "#ffffff",
            "animations": [{"class": "CAKeyframeAnimation", "keyPath": "opacity", "values": [1, 0.2, 1], "keyTimes": [0, 0.5, 1], "duration": 2, "repeatCount": 2}]},
           {"class": "CAGradientLayer", "frame": [0, 30, 64, 18], "colors": ["#000000", "#ff0000"], "startPoint": [0, 0], "endPoint": [1, 1]}
         ]}}
        """,
    ]

    static let lottie: [String] = [
        """
        {"v":"5.7.4","fr":30,"ip":0,"op":60,"w":64,"h":64,"nm":"seed","ddd":0,"assets":[],
         "layers":[{"ddd":0,"ind":1,"ty":4,"nm":"shape","sr":1,"ks":{"o":{"a":0,"k":100},"r":{"a":1,"k":[{"t":0,"s":[0],"i":{"x":[0.5],"y":[1]},"o":{"x":[0.5],"y":[0]}},{"t":60,"s":[360]}]},
           "p":{"a":0,"k":[32,32,0]},"a":{"a":0,"k":[0,0,0]},"s":{"a":0,"k":[100,100,100]}},"ao":0,
           "shapes":[{"ty":"gr","nm":"g","it":[{"ty":"rc","d":1,"s":{"a":0,"k":[20,20]},"p":{"a":0,"k":[0,0]},"r":{"a":0,"k":4}},
             {"ty":"st","c":{"a":0,"k":[0,0,0,1]},"o":{"a":0,"k":100},"w":{"a":0,"k":2},"lc":2,"lj":2},
             {"ty":"fl","c":{"a":1,"k":[{"t":0,"s":[1,0,0,1]},{"t":30,"s":[0,0,1,1]}]},"o":{"a":0,"k":100},"r":1},
             {"ty":"tm","s":{"a":0,"k":0},"e":{"a":0,"k":50},"o":{"a":0,"k":0},"m":1},
             {"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}]}],
           "ip":0,"op":60,"st":0,"bm":0},
          {"ddd":0,"ind":2,"ty":1,"nm":"solid","sw":64,"sh":64,"sc":"#336699","ks":{"o":{"a":0,"k":50}},"ip":0,"op":60,"st":0,"tt":1}]}
        """,
    ]

    /// A 12×9 image with a gradient and transparency, encoded as PNG, JPEG and WebP.
    static let images: [Data] = {
        guard let ctx = CGContext(data: nil, width: 12, height: 9, bitsPerComponent: 8, bytesPerRow: 0,
                                  space: CGColorSpaceCreateDeviceRGB(),
                                  bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue) else { return [] }
        for x in 0..<12 {
            ctx.setFillColor(CGColor(red: CGFloat(x) / 11, green: 0.5, blue: 1 - CGFloat(x) / 11, alpha: x % 3 == 0 ? 0.5 : 1))
            ctx.fill(CGRect(x: x, y: 0, width: 1, height: 9))
        }
        guard let image = ctx.makeImage() else { return [] }
        return ["public.png", "public.jpeg", "org.webmproject.webp"].compactMap { type in
            let data = NSMutableData()
            guard let dst = CGImageDestinationCreateWithData(data, type as CFString, 1, nil) else { return nil }
            CGImageDestinationAddImage(dst, image, nil)
            return CGImageDestinationFinalize(dst) ? data as Data : nil
        }
    }()
}
