import Foundation
import CoreImage

/// Filter primitives that make pictures rather than change one (feTurbulence) or move pixels
/// by another picture (feDisplacementMap), read from their elements (Filter Effects Module
/// Level 1). Their parameters are in user units, as the graph's are.
extension SVGBuilder {
    /// feTurbulence (§ feTurbulence): `baseFrequency` one or two numbers ≥ 0 (a negative one is
    /// an error: the result is transparent), `numOctaves` an integer (negative → 0; the renderer
    /// clamps large counts, `FilterTurbulenceStep.maxOctaves`), `seed` truncated towards zero,
    /// `stitchTiles`, `type` (anything but fractalNoise is turbulence, the initial value).
    func turbulenceKind(_ p: SVGElement) -> FilterPrimitive.Kind {
        var f = SIMD2<Double>(0, 0)
        if let raw = p.attributes["baseFrequency"] {
            let (v, complete) = SVGScanner.numberList(raw)
            guard complete, v.count == 1 || v.count == 2, v.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
                log.add(.invalidValue, "<feTurbulence baseFrequency>", "\"\(raw.prefix(40))\" is not one or two numbers ≥ 0; transparent result")
                return .flood(.zero)
            }
            f = SIMD2(v[0], v.count == 2 ? v[1] : v[0])
        }
        func number(_ n: String) -> Double? {
            p.attributes[n].flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }.flatMap { $0.isFinite ? $0 : nil }
        }
        let octaves = number("numOctaves").map { Int.clamped(max($0, 0).rounded(.towardZero)) } ?? 1
        if octaves > FilterTurbulenceLimits.maxOctaves {
            log.add(.limitReached, "<feTurbulence numOctaves>", "\(octaves) octaves; only the first \(FilterTurbulenceLimits.maxOctaves) are summed (the rest change no 8-bit level)")
        }
        let seed = number("seed").map { Int(Int32.clamped($0.rounded(.towardZero))) } ?? 0
        return .turbulence(FilterTurbulence(baseFrequency: f, numOctaves: octaves, seed: seed,
                                            stitchTiles: p.attributes["stitchTiles"] == "stitch",
                                            fractalNoise: p.attributes["type"] == "fractalNoise"))
    }

    /// feDisplacementMap (§ feDisplacementMap): `scale` (user units, or a fraction of the
    /// bounding box with primitiveUnits="objectBoundingBox": `kx`, `ky`), channel selectors R, G,
    /// B, A (A when missing or invalid).
    func displacementKind(_ p: SVGElement, kx: Double, ky: Double) -> FilterPrimitive.Kind {
        let channels = ["R": 0, "G": 1, "B": 2, "A": 3]
        let scale = p.attributes["scale"].flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }.flatMap { $0.isFinite ? $0 : nil } ?? 0
        return .displacementMap(scaleX: scale * kx, scaleY: scale * ky,
                                x: channels[p.attributes["xChannelSelector"] ?? "A"] ?? 3,
                                y: channels[p.attributes["yChannelSelector"] ?? "A"] ?? 3)
    }
}

extension SVGBuilder {
    /// feImage (§ feImage): `href` to an image (a file beside the document or a data URL, read
    /// by the same rules as `<image>`: `SVGImage.swift`) placed in the primitive subregion with
    /// `preserveAspectRatio`, or to an element of the document (`#id`), built as `<use>` would
    /// build it in the filtered element's user space, moved by the subregion's origin (x and y,
    /// given or the default, as the resvg suite's references draw it). The layer goes into `images`; the renderer
    /// draws it into a target of its own (`FilterPrimitive.Kind.image`). A reference back into
    /// a filter being built (the element uses this filter, or contains an element that does)
    /// is refused with a report and the result is transparent.
    func imageKind(_ p: SVGElement, filter: SVGElement, subregion: CGRect, offset: CGSize, images: inout [AnyObject]) -> FilterPrimitive.Kind {
        guard let href = p.attributes["href"]?.trimmingCharacters(in: .whitespacesAndNewlines), !href.isEmpty else {
            return .flood(.zero)
        }
        let layer: CALayer
        if href.hasPrefix("#") {
            let id = String(href.dropFirst())
            guard let target = ids[id] else {
                log.add(.brokenReference, "<feImage href=\"\(href.prefix(60))\">", "no element with that id; transparent result")
                return .flood(.zero)
            }
            let keys = [ObjectIdentifier(filter), ObjectIdentifier(target)]
            guard !keys.contains(where: { active.contains($0) }) else {
                log.add(.invalidValue, "<feImage href=\"\(href.prefix(60))\">", "recursive reference (the element is being filtered by it); transparent result")
                return .flood(.zero)
            }
            for k in keys { active.insert(k) }
            let recursionBefore = feImageRecursion
            feImageRecursion = false
            let built = build(target, parentStyle: target.parent.map { styleFromRoot($0) } ?? SVGComputedStyle())
            let recursive = feImageRecursion
            feImageRecursion = recursionBefore
            for k in keys { active.remove(k) }
            guard !recursive else {
                log.add(.invalidValue, "<feImage href=\"\(href.prefix(60))\">", "recursive reference (the element uses this filter); transparent result")
                return .flood(.zero)
            }
            guard let b = built else { return .flood(.zero) }
            if offset == .zero {
                layer = b.layer
            } else {
                layer = CALayer()
                layer.addSublayer(b.layer)
                SVGLayerPlacement.place(layer, rect: b.extent.isNull ? .zero : b.extent,
                                        transform: CGAffineTransform(translationX: offset.width, y: offset.height))
            }
        } else {
            guard subregion.width > 0, subregion.height > 0, subregion.minX.isFinite, subregion.minY.isFinite else { return .flood(.zero) }
            var attrs = ["href": href, "x": "\(subregion.minX)", "y": "\(subregion.minY)",
                         "width": "\(subregion.width)", "height": "\(subregion.height)"]
            attrs["preserveAspectRatio"] = p.attributes["preserveAspectRatio"]
            attrs["image-rendering"] = p.attributes["image-rendering"]
            let e = SVGElement(name: "image", attributes: attrs)
            e.parent = p.parent
            guard let content = image(e, style: styleFromRoot(p)) else { return .flood(.zero) }
            layer = content.layer
        }
        images.append(layer)
        return .image(images.count - 1)
    }
}
