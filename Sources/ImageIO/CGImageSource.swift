// Reading images, as Apple's ImageIO `CGImageSource`
// (https://developer.apple.com/documentation/imageio/cgimagesource): PNG, JPEG, GIF (every
// frame, composed) and WebP (still and animated). See docs/IMAGEIO.md.
import CoreGraphics
import Foundation

/// An image source: the bytes of one image file and what its headers say. Created by
/// `CGImageSourceCreateWithData` or `CGImageSourceCreateWithURL`; immutable apart from the
/// GIF canvas it keeps between frames, so `Sendable`. Headers are read when the source is
/// created; pixels only in `CGImageSourceCreateImageAtIndex`.
public final class CGImageSource: Sendable {
    /// Largest image decoded, in pixels (16384 × 16384, 1 GiB of RGBA8): the PNG path's limit
    /// (`CGImage.maxPNGPixelCount`), for every format. Checked from the header before any pixel
    /// memory is allocated. Extension beyond Apple's API.
    public static let maxPixelCount = CGImage.maxPNGPixelCount

    let data: Data
    /// The file's path, for error messages.
    let file: String?
    let container: ImageContainer
    private let gifCanvas = Locked<GIFCanvasState?>(nil)

    init(data: Data, file: String?) {
        self.data = data
        self.file = file
        container = ImageContainer.parse(data)
    }

    var count: Int { container.frames.count }

    /// Extension beyond Apple's API: the image at `index`, or the reason it cannot be had, as a
    /// `CGImageSourceError` naming the file (Apple's `CGImageSourceCreateImageAtIndex` only
    /// returns nil). GIF and animated WebP give the canvas after frame `index` is composed.
    public func decodeImage(at index: Int) throws(CGImageSourceError) -> CGImage {
        let result = decode(index)
        switch result {
        case .success(let image): return image
        case .failure(let f): throw CGImageSourceError(kind: f.kind, file: file, message: f.message)
        }
    }

    private func decode(_ index: Int) -> Result<CGImage, DecodeFailure> {
        if let e = container.headerError { return .failure(e) }
        guard let format = container.format else { return .failure(DecodeFailure(kind: .unknownType, message: "unknown format")) }
        guard index >= 0, index < count else {
            return .failure(DecodeFailure(kind: .indexOutOfRange, message: "no image at index \(index) (the source has \(count))"))
        }
        switch format {
        case .png:
            do throws(CGImagePNGError) {
                return .success(try CGImage.decodePNG(data))
            } catch {
                return .failure(DecodeFailure(kind: error.kind == .imageTooLarge ? .imageTooLarge : .invalidData,
                                              message: error.message))
            }
        case .jpeg:
            return JPEGCodec.decode(data)
        case .webP:
            // A still WebP has no frame delay; an animated one always has (0 included).
            return WebPCodec.decode(data, index: index, animated: container.frames[0].delay != nil)
        case .gif:
            let cached = gifCanvas.withLock { $0 }
            switch GIFCodec.compose(data, container.gif!, index: index, cached: cached) {
            case .success(let (image, state)):
                gifCanvas.withLock { $0 = state }
                return .success(image)
            case .failure(let e):
                return .failure(e)
            }
        }
    }

    func status(at index: Int?) -> CGImageSourceStatus {
        guard container.format != nil else { return .statusUnknownType }
        if container.headerError != nil { return .statusInvalidData }
        if let index {
            guard index >= 0, index < count else { return .statusInvalidData }
            if let g = container.gif, !g.frames[index].complete { return .statusUnexpectedEOF }
        } else if let g = container.gif, g.frames.last?.complete == false {
            return .statusIncomplete
        }
        return .statusComplete
    }

    func properties(at index: Int) -> CFDictionary? {
        guard index >= 0, index < count, let format = container.format else { return nil }
        let f = container.frames[index]
        var p: [AnyHashable: Any] = [
            kCGImagePropertyPixelWidth: f.width,
            kCGImagePropertyPixelHeight: f.height,
            kCGImagePropertyDepth: 8,
            kCGImagePropertyHasAlpha: f.hasAlpha,
            kCGImagePropertyColorModel: f.isGray ? kCGImagePropertyColorModelGray : kCGImagePropertyColorModelRGB,
        ]
        if let o = f.orientation {
            p[kCGImagePropertyOrientation] = o
            p[kCGImagePropertyTIFFDictionary] = [kCGImagePropertyTIFFOrientation: o] as [AnyHashable: Any]
        }
        switch format {
        case .png: p[kCGImagePropertyPNGDictionary] = [AnyHashable: Any]()
        case .jpeg: p[kCGImagePropertyJFIFDictionary] = [AnyHashable: Any]()
        case .gif:
            let delay = f.delay ?? 0
            p[kCGImagePropertyGIFDictionary] = [kCGImagePropertyGIFDelayTime: delay < 0.011 ? 0.1 : delay,
                                                kCGImagePropertyGIFUnclampedDelayTime: delay] as [AnyHashable: Any]
        case .webP:
            if let delay = f.delay {
                p[kCGImagePropertyWebPDictionary] = [kCGImagePropertyWebPDelayTime: delay < 0.011 ? 0.1 : delay,
                                                     kCGImagePropertyWebPUnclampedDelayTime: delay] as [AnyHashable: Any]
            }
        }
        return p
    }

    func containerProperties() -> CFDictionary? {
        var p: [AnyHashable: Any] = [kCGImagePropertyFileSize: data.count]
        if let loops = container.loopCount {
            switch container.format {
            case .gif: p[kCGImagePropertyGIFDictionary] = [kCGImagePropertyGIFLoopCount: loops] as [AnyHashable: Any]
            case .webP:
                var w: [AnyHashable: Any] = [kCGImagePropertyWebPLoopCount: loops]
                if let f = container.frames.first {
                    w[kCGImagePropertyWebPCanvasPixelWidth] = f.width
                    w[kCGImagePropertyWebPCanvasPixelHeight] = f.height
                }
                p[kCGImagePropertyWebPDictionary] = w
            default: break
            }
        }
        return p
    }

    func reportFailure(_ error: CGImageSourceError) {
        CGDiagnostics.warnOnce("ImageIO: \(error.description)")
    }
}

// MARK: - Apple's functions

/// An image source reading the file at `url` (read whole when the source is created). Nil, with
/// a warning naming the file, when the file cannot be read or is not a regular file (a FIFO or
/// a device would never end). Options: see
/// `kCGImageSourceTypeIdentifierHint` and the other `kCGImageSource…` keys.
public func CGImageSourceCreateWithURL(_ url: CFURL, _ options: CFDictionary?) -> CGImageSource? {
    ImageIOOptions.checkSource(options)
    let name = url.isFileURL ? url.path : url.absoluteString
    // Only regular files: a FIFO or a device such as /dev/zero would never finish reading.
    if url.isFileURL, let type = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType {
        guard type == .typeRegular else {
            CGDiagnostics.warnOnce("ImageIO: \(name): not a regular file")
            return nil
        }
    }
    do {
        let data = try Data(contentsOf: url)
        return CGImageSource(data: data, file: name)
    } catch {
        CGDiagnostics.warnOnce("ImageIO: \(name): cannot be read (\(error.localizedDescription))")
        return nil
    }
}

/// An image source over `data`. Never nil: data in no supported format gives a source whose
/// type is nil, status `.statusUnknownType` and count 0.
public func CGImageSourceCreateWithData(_ data: CFData, _ options: CFDictionary?) -> CGImageSource? {
    ImageIOOptions.checkSource(options)
    return CGImageSource(data: data, file: nil)
}

/// The source's uniform type identifier ("public.png", "public.jpeg", "com.compuserve.gif",
/// "org.webmproject.webp"), or nil when the data is in none of these formats.
public func CGImageSourceGetType(_ isrc: CGImageSource) -> CFString? {
    isrc.container.format?.typeIdentifier
}

/// The number of images: 1 for PNG, JPEG and still WebP; the frame count of a GIF or animated
/// WebP (a GIF frame the file cuts off counts, but gives no image); 0 when the header is
/// unreadable.
public func CGImageSourceGetCount(_ isrc: CGImageSource) -> Int {
    isrc.count
}

/// The image at `index`, or nil (with a warning naming the file and the reason) when the data is
/// corrupt, cut off, declares more than `CGImageSource.maxPixelCount` pixels, or `index` is out
/// of range. GIF and animated WebP frames come composed on the canvas (disposal and blending
/// applied), as Apple gives them. EXIF orientation is not applied (as on Apple).
public func CGImageSourceCreateImageAtIndex(_ isrc: CGImageSource, _ index: Int, _ options: CFDictionary?) -> CGImage? {
    ImageIOOptions.checkSource(options)
    do {
        return try isrc.decodeImage(at: index)
    } catch {
        isrc.reportFailure(error)
        return nil
    }
}

/// Properties of the image at `index` (`kCGImagePropertyPixelWidth`/`…Height`, `…Depth`,
/// `…HasAlpha`, `…ColorModel`, `…Orientation` for EXIF JPEGs, the `{GIF}`/`{WebP}` delay),
/// read from the headers; nil when `index` is out of range.
public func CGImageSourceCopyPropertiesAtIndex(_ isrc: CGImageSource, _ index: Int, _ options: CFDictionary?) -> CFDictionary? {
    ImageIOOptions.checkSource(options)
    return isrc.properties(at: index)
}

/// Container properties: `kCGImagePropertyFileSize`, and the GIF / animated WebP loop count.
public func CGImageSourceCopyProperties(_ isrc: CGImageSource, _ options: CFDictionary?) -> CFDictionary? {
    ImageIOOptions.checkSource(options)
    return isrc.containerProperties()
}

/// `.statusComplete`, `.statusUnknownType` (no supported format), `.statusInvalidData` (header
/// unreadable), or `.statusIncomplete` when the file ends inside a GIF's last frame. Whether the
/// pixels decode is only known at `CGImageSourceCreateImageAtIndex`.
public func CGImageSourceGetStatus(_ isrc: CGImageSource) -> CGImageSourceStatus {
    isrc.status(at: nil)
}

/// As `CGImageSourceGetStatus`, for one image: `.statusUnexpectedEOF` for a GIF frame the file
/// cuts off, `.statusInvalidData` for an index out of range.
public func CGImageSourceGetStatusAtIndex(_ isrc: CGImageSource, _ index: Int) -> CGImageSourceStatus {
    isrc.status(at: index)
}

/// The type identifiers sources read: PNG, JPEG, GIF, WebP.
public func CGImageSourceCopyTypeIdentifiers() -> CFArray {
    [ImageIOTypeIdentifier.png, ImageIOTypeIdentifier.jpeg, ImageIOTypeIdentifier.gif, ImageIOTypeIdentifier.webP]
}
