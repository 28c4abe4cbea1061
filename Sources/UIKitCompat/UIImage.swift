import Foundation

/// UIKit's `UIImage` (https://developer.apple.com/documentation/uikit/uiimage), as Core
/// Animation code uses it: a `CGImage` with a scale and an orientation, whose `cgImage` goes
/// into `layer.contents`.
///
/// `size` is in points: pixels divided by `scale`, with width and height swapped for the
/// left/right orientations, as UIKit documents. As on iOS, `layer.contents = image.cgImage`
/// shows the bitmap unrotated whatever `imageOrientation` says.
///
/// Differences from UIKit: only PNG is decoded (this project's `CGImage(pngData:)`); other
/// formats give nil and log a warning. `init?(named:)` reads files (there are no asset
/// catalogs) and does not cache. Drawing (`draw(at:)`, `draw(in:)`) and `jpegData` are not
/// reproduced and log a warning.
open class UIImage: CustomStringConvertible, @unchecked Sendable {
    /// UIKit's `UIImage.Orientation`, raw values as UIKit's.
    public enum Orientation: Int, Sendable, Hashable {
        case up = 0, down, left, right, upMirrored, downMirrored, leftMirrored, rightMirrored
    }

    /// The bitmap; nil only for an empty `UIImage()`.
    public let cgImage: CGImage?
    /// Pixels per point (1, 2, 3 …).
    public let scale: CGFloat
    public let imageOrientation: Orientation

    /// An empty image of size zero (UIKit `init()`).
    public init() {
        cgImage = nil; scale = 1; imageOrientation = .up
    }

    /// The image at scale 1, orientation up.
    public convenience init(cgImage: CGImage) {
        self.init(cgImage: cgImage, scale: 1, orientation: .up)
    }

    /// The image with a scale (pixels per point) and orientation. A scale that is not a
    /// positive finite number is taken as 1 (UIKit does not document the case).
    public init(cgImage: CGImage, scale: CGFloat, orientation: Orientation) {
        self.cgImage = cgImage
        self.scale = (scale.isFinite && scale > 0) ? scale : 1
        self.imageOrientation = orientation
    }

    /// The image decoded from `data` at scale 1; nil when it is not a decodable PNG.
    public convenience init?(data: Data) {
        self.init(data: data, scale: 1)
    }

    /// The image decoded from `data` with `scale`; nil when it is not a decodable PNG (other
    /// formats log one warning: only PNG is decoded here).
    public convenience init?(data: Data, scale: CGFloat) {
        guard let image = UIImage.decode(data, what: "UIImage(data:)") else { return nil }
        self.init(cgImage: image, scale: scale, orientation: .up)
    }

    /// The PNG file at `path`. As UIKit does, a file name ending in `@2x` or `@3x` (before the
    /// extension) sets the scale. Nil when the file cannot be read or decoded.
    public convenience init?(contentsOfFile path: String) {
        guard let data = FileManager.default.contents(atPath: path),
              let image = UIImage.decode(data, what: "UIImage(contentsOfFile:)") else { return nil }
        self.init(cgImage: image, scale: UIImage.scaleFromFileName(path), orientation: .up)
    }

    /// UIKit looks `name` up in the app's asset catalog and bundle. Here it is a file path:
    /// tried as given, then with `.png`, `@2x.png`, `@3x.png` appended (the 1x file first,
    /// there being no screen scale to prefer), relative to `Bundle.main.resourcePath` and then
    /// to the current directory (an absolute `name` is used as is). No cache (UIKit caches).
    public convenience init?(named name: String) {
        guard !name.isEmpty else { return nil }
        let hasExtension = !(name as NSString).pathExtension.isEmpty
        let candidates = hasExtension ? [name] : [name, name + ".png", name + "@2x.png", name + "@3x.png"]
        var folders: [String] = []
        if name.hasPrefix("/") {
            folders = [""]
        } else {
            if let resources = Bundle.main.resourcePath { folders.append(resources) }
            folders.append(FileManager.default.currentDirectoryPath)
        }
        for folder in folders {
            for candidate in candidates {
                let path = folder.isEmpty ? candidate : (folder as NSString).appendingPathComponent(candidate)
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
                      !isDirectory.boolValue else { continue }
                self.init(contentsOfFile: path)
                return
            }
        }
        return nil
    }

    /// Size in points: pixel size divided by `scale`; width and height swapped for `.left`,
    /// `.right` and their mirrored forms (UIKit: "The logical dimensions … take the image's
    /// orientation into account"). `.zero` for an empty image.
    open var size: CGSize {
        guard let cgImage else { return .zero }
        let w = CGFloat(cgImage.width) / scale, h = CGFloat(cgImage.height) / scale
        switch imageOrientation {
        case .left, .right, .leftMirrored, .rightMirrored: return CGSize(width: h, height: w)
        default: return CGSize(width: w, height: h)
        }
    }

    /// The bitmap as PNG data (UIKit `pngData()`); nil for an empty image. Orientation is not
    /// applied (UIKit does not apply it either, the PNG has no orientation tag).
    open func pngData() -> Data? { cgImage?.pngData() }

    /// Not reproduced (no JPEG encoder here): logs one warning, returns nil.
    open func jpegData(compressionQuality: CGFloat) -> Data? {
        CompatDiagnostics.warnOnce("UIImage.jpegData(compressionQuality:)", "returns nil: there is no JPEG encoder (use pngData())")
        return nil
    }

    /// Not reproduced (no UIGraphics context): draws nothing, logs one warning. Use
    /// `layer.contents = image.cgImage`.
    open func draw(at point: CGPoint) {
        CompatDiagnostics.warnOnce("UIImage.draw(at:)", "draws nothing: there is no UIGraphics context (set layer.contents = image.cgImage)")
    }

    /// Not reproduced (no UIGraphics context): draws nothing, logs one warning.
    open func draw(in rect: CGRect) {
        CompatDiagnostics.warnOnce("UIImage.draw(in:)", "draws nothing: there is no UIGraphics context (set layer.contents = image.cgImage)")
    }

    open var description: String {
        "<UIImage: size {\(size.width), \(size.height)}, scale \(scale), orientation \(imageOrientation)>"
    }

    // MARK: Helpers

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// PNG data → image; other data → nil, with a warning naming the format gap when the data
    /// is not a PNG at all (a corrupt PNG is just nil, as in UIKit).
    private static func decode(_ data: Data, what: String) -> CGImage? {
        guard data.starts(with: pngSignature) else {
            if !data.isEmpty {
                CompatDiagnostics.warnOnce(what, "decodes PNG only: other image formats (JPEG, HEIC, GIF …) give nil")
            }
            return nil
        }
        return CGImage(pngData: data)
    }

    /// `name@2x.png` → 2, `name@3x` → 3, otherwise 1.
    static func scaleFromFileName(_ path: String) -> CGFloat {
        let base = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        guard let at = base.lastIndex(of: "@"), base.hasSuffix("x") else { return 1 }
        let digits = base[base.index(after: at)..<base.index(before: base.endIndex)]
        guard let n = Int(digits), n > 0, n <= 16 else { return 1 }
        return CGFloat(n)
    }
}
