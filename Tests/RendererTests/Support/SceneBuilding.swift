import Testing
import Foundation

/// Small builders and named colours the renderer suites share.
protocol SceneBuilding {}

extension SceneBuilding {
    var white: RGBA { RGBA(255, 255, 255) }
    var red: RGBA { RGBA(255, 0, 0) }
    var green: RGBA { RGBA(0, 255, 0) }
    var blue: RGBA { RGBA(0, 0, 255) }
    var black: RGBA { RGBA(0, 0, 0) }
    var yellow: RGBA { RGBA(255, 255, 0) }

    /// A root layer of `w × h` points at the origin.
    func root(_ w: CGFloat, _ h: CGFloat) -> CALayer {
        let r = CALayer()
        r.frame = CGRect(x: 0, y: 0, width: w, height: h)
        return r
    }

    /// A layer with `frame` and a background colour (nil: none).
    func layer(_ frame: CGRect, _ color: CGColor?) -> CALayer {
        let l = CALayer()
        l.frame = frame
        l.backgroundColor = color
        return l
    }
}
