/// The JSON shape of a property's value, chosen by the property (docs/SCENE-FORMAT.md,
/// "Values"). One kind per Swift type of Apple's API.
enum SceneValueKind: Equatable {
    case number, bool, point, size, rect, transform, color, path, string
    /// A string constant from a fixed list (`contentsGravity`, `fillMode`, …).
    case constant([String])
    case numberArray, colorArray
    /// Layer contents: an image file path (PNG, JPEG, GIF or WebP) relative to the scene file.
    case image
    case cornerMask, edgeMask
    case timingFunction

    /// Whether JSON `null` is a valid value (the Swift property is an Optional).
    var nullable: Bool {
        switch self {
        case .color, .path, .string, .numberArray, .colorArray, .image, .timingFunction: return true
        default: return false
        }
    }

    /// The value kind of a model property kind (animations' from/to/values).
    init?(_ k: ValueKind) {
        switch k {
        case .number: self = .number
        case .bool: self = .bool
        case .point: self = .point
        case .size: self = .size
        case .rect: self = .rect
        case .transform: self = .transform
        case .color: self = .color
        case .path: self = .path
        case .vector: self = .numberArray
        case .object: return nil
        }
    }

    var expected: String {
        switch self {
        case .number: return "a number"
        case .bool: return "true or false"
        case .point: return "a point [x, y]"
        case .size: return "a size [width, height]"
        case .rect: return "a rect [x, y, width, height]"
        case .transform: return "a transform (16 numbers, or an object such as {\"rotateZ\": 0.5})"
        case .color: return "a colour (\"#RRGGBB\", \"#RRGGBBAA\" or [r, g, b, a])"
        case .path: return "a path (SVG path data such as \"M 0 0 L 10 10 Z\", or a list of elements)"
        case .string: return "a string"
        case .constant(let names): return "one of " + names.map { "\"\($0)\"" }.joined(separator: ", ")
        case .numberArray: return "an array of numbers"
        case .colorArray: return "an array of colours"
        case .image: return "an image file path (PNG, JPEG, GIF or WebP) relative to the scene file"
        case .cornerMask: return "an array of corner names (layerMinXMinYCorner …) or a number 0…15"
        case .edgeMask: return "an array of edge names (layerLeftEdge …) or a number 0…15"
        case .timingFunction: return "a timing function name (\"easeInEaseOut\" …) or [c1x, c1y, c2x, c2y]"
        }
    }
}

/// The string constants of Apple's API the format accepts, by Swift type.
enum SceneConstants {
    static let contentsGravity = ["center", "top", "bottom", "left", "right", "topLeft", "topRight", "bottomLeft",
                                  "bottomRight", "resize", "resizeAspect", "resizeAspectFill"]
    static let contentsFilter = ["linear", "nearest", "trilinear"]
    static let contentsFormat = ["RGBA8", "RGBAh", "Gray8", "Automatic"]
    static let cornerCurve = ["circular", "continuous"]
    static let fillMode = ["removed", "forwards", "backwards", "both"]
    static let gradientType = ["axial", "radial", "conic"]
    static let scrollMode = ["none", "vertically", "horizontally", "both"]
    static let fillRule = ["non-zero", "even-odd"]
    static let lineCap = ["butt", "round", "square"]
    static let lineJoin = ["miter", "round", "bevel"]
    static let calculationMode = ["linear", "discrete", "paced", "cubic", "cubicPaced"]
    static let rotationMode = ["auto", "autoReverse"]
    static let transitionType = ["fade", "moveIn", "push", "reveal"]
    static let transitionSubtype = ["fromLeft", "fromRight", "fromTop", "fromBottom"]
    static let valueFunction = ["rotateX", "rotateY", "rotateZ", "scale", "scaleX", "scaleY", "scaleZ",
                                "translate", "translateX", "translateY", "translateZ"]
    static let timingFunctionNames = CAMediaTimingFunctionName.predefined.map(\.rawValue)
    /// Bit i is `1 << i`; the option sets' own names, which their `Codable` writes.
    static let corners = CACornerMask.optionNames
    static let edges = CAEdgeAntialiasingMask.optionNames
}
