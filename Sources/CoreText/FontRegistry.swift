import CoreGraphics
import Foundation
import CFontconfig

/// Finds fonts: by name through fontconfig, after Core Text's well-known names are mapped to
/// installed metric-compatible families (`familySubstitutes`), and per character for fallback.
/// Faces are loaded once per (file, index) and shared.
///
/// The configuration is the system's (`FcInitLoadConfigAndFonts`) unless a caller installs
/// another with `useFontDirectories(_:)` (tests use one that sees only the fonts in
/// `../shared/corpora/fonts`, so expected metrics never depend on what a machine has installed).
package final class FontRegistry: @unchecked Sendable {
    package static let shared = FontRegistry()

    /// A registry of its own (tests compare configurations); `shared` is the one Core Text uses.
    package init() {}

    private struct State {
        var config: OpaquePointer?                       // FcConfig*
        var faces: [String: FontFace] = [:]              // "path#index" → face
        var failedFiles: Set<String> = []
        var fallback: [UInt32: FontFace?] = [:]          // scalar → first font that has it
        var byName: [String: FontFace] = [:]             // resolved names
        var registered: [FontFace] = []                  // CTFontManagerRegisterFontsForURL, CGFont(provider)
        var installedDirectories: [String]? = nil        // useFontDirectories' folders, when it was called
        var installedGenerics: [String: String] = [:]    // and its generic families
        var colorEmoji: [FontFace]? = nil                // colour emoji faces, fontconfig's order (colorEmojiFace)
    }
    private let state = Locked(State())

    /// Apple font names and the families they map to here, first installed one wins. Helvetica
    /// and Arial have the metric-compatible Liberation Sans (same advance widths) and URW's
    /// Nimbus Sans; the system UI font (San Francisco on Apple platforms) is Noto Sans, then
    /// any sans-serif fontconfig offers (docs/TEXT.md).
    package static let familySubstitutes: [String: [String]] = {
        let sans = ["Liberation Sans", "Nimbus Sans", "Nimbus Sans L", "Arimo"]
        let serif = ["Liberation Serif", "Nimbus Roman", "Tinos"]
        let mono = ["Liberation Mono", "Nimbus Mono PS", "Cousine"]
        let system = ["Noto Sans", "Inter", "DejaVu Sans"]
        var m: [String: [String]] = [:]
        for n in ["helvetica", "helvetica neue", "arial", "helveticaneue", "arialmt"] { m[n] = sans }
        for n in ["times", "times new roman", "timesnewromanpsmt"] { m[n] = serif }
        for n in ["courier", "courier new", "menlo", "monaco", "couriernewpsmt"] { m[n] = mono }
        for n in [".applesystemuifont", ".sfui-regular", ".sf ns text", "system font", "sf pro", "sf pro text",
                  "sf pro display", ".sfnstext", ".sfnsdisplay", "san francisco"] { m[n] = system }
        return m
    }()

    /// Installs a configuration that knows only the fonts in `directories` (extension beyond
    /// Apple's API, for tests and embedders). Cached faces and fallbacks are dropped.
    /// `genericFamilies` maps CSS generic names ("serif", "sans-serif", "monospace", "cursive",
    /// "fantasy") to a family in those folders, as a system configuration's aliases do.
    ///
    /// Installing the folders already installed, with generic families already mapped the same
    /// way, changes nothing (caches kept); new generic families for the same folders are added
    /// to the ones installed. So callers that share the folders (test suites running in
    /// parallel) never take a mapping away from each other mid-run.
    package func useFontDirectories(_ directories: [URL], genericFamilies requested: [String: String] = [:]) {
        let paths = directories.map(\.path)
        var genericFamilies = requested
        let unchanged: Bool = state.withLock { s in
            guard s.installedDirectories == paths else { return false }
            if requested.allSatisfy({ s.installedGenerics[$0.key] == $0.value }) { return true }
            genericFamilies = s.installedGenerics.merging(requested) { _, new in new }
            return false
        }
        if unchanged { return }
        guard let config = FcConfigCreate() else { return }
        // Only a cache directory (the user's, as the system configuration has), so fontconfig
        // neither complains that it cannot cache nor rescans the folder in every process.
        func escaped(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        }
        let aliases = genericFamilies.sorted { $0.key < $1.key }.map {
            "<alias binding=\"same\"><family>\(escaped($0.key))</family><prefer><family>\(escaped($0.value))</family></prefer></alias>"
        }.joined()
        let xml = "<?xml version=\"1.0\"?><fontconfig><cachedir prefix=\"xdg\">fontconfig</cachedir>\(aliases)</fontconfig>"
        _ = FcConfigParseAndLoadFromMemory(config, xml, FcTrue)
        for d in directories { _ = FcConfigAppFontAddDir(config, d.path) }
        state.withLock { s in
            if let old = s.config { FcConfigDestroy(old) }
            s.config = config
            s.fallback = [:]; s.byName = [:]; s.colorEmoji = nil
            s.installedDirectories = paths
            s.installedGenerics = genericFamilies
        }
    }

    private func config(_ s: inout State) -> OpaquePointer? {
        if s.config == nil { s.config = FcInitLoadConfigAndFonts() }
        return s.config
    }

    /// The face in `path` (face `index`), loaded once; nil (and a warning naming the file)
    /// when the file is missing or not a font.
    package func face(path: String, index: Int = 0) -> FontFace? {
        let key = "\(path)#\(index)"
        if let f = state.withLock({ $0.faces[key] }) { return f }
        if state.withLock({ $0.failedFiles.contains(key) }) { return nil }
        let attrs = try? FileManager.default.attributesOfItem(atPath: path)
        let size = (attrs?[.size] as? NSNumber)?.intValue ?? 0
        guard size > 0, size <= FontFace.maxFileSize, let data = FileManager.default.contents(atPath: path),
              let face = FontFace(data: data, index: index, sourceName: path) else {
            TextDiagnostics.warnOnce("font file \(path) could not be read as a font")
            state.withLock { _ = $0.failedFiles.insert(key) }
            return nil
        }
        return state.withLock { s in
            if let f = s.faces[key] { return f }
            s.faces[key] = face
            return face
        }
    }

    /// Makes `face` findable by its names (PostScript, family, full) before fontconfig's fonts,
    /// and first in fallback: the remembered fallbacks go, since a character answered before
    /// (or answered with no font) may now be the new face's.
    package func register(_ face: FontFace) {
        state.withLock { s in
            s.registered.append(face)
            s.byName = [:]
            s.fallback = [:]
            if face.isColorBitmap { s.colorEmoji = nil }
        }
    }

    /// Adds a font file to the lookup (CTFontManagerRegisterFontsForURL): every face in it.
    package func registerFile(_ url: URL) -> Bool {
        guard let first = face(path: url.path) else { return false }
        var faces = [first]
        // Every face of a collection (bounded: a corrupt count cannot make this loop long).
        for i in stride(from: 1, to: min(first.faceCount, 64), by: 1) { if let f = face(path: url.path, index: i) { faces.append(f) } }
        for f in faces { register(f) }
        return true
    }

    /// Resolves a Core Text font name: registered fonts by PostScript, full or family name; the
    /// name mapped through `familySubstitutes`; fontconfig's match for the family or PostScript
    /// name. Nil when nothing at all matches (no fonts configured).
    package func face(named name: String) -> (face: FontFace, exact: Bool)? {
        let key = name.lowercased()
        if let f = state.withLock({ $0.byName[key] }) { return (f, true) }
        if let f = state.withLock({ s in s.registered.first { Self.names($0).contains(key) } }) {
            state.withLock { $0.byName[key] = f }
            return (f, true)
        }
        let candidates = Self.familySubstitutes[key] ?? Self.familySubstitutes[Self.baseName(key)] ?? []
        let wantsBold = key.contains("bold"), wantsItalic = key.contains("italic") || key.contains("oblique")
        for family in candidates {
            if let f = match(family: family, bold: wantsBold, italic: wantsItalic), f.familyName.lowercased() == family.lowercased() {
                state.withLock { $0.byName[key] = f }
                return (f, true)
            }
        }
        if let f = match(postScriptName: name), f.postScriptName.lowercased() == key {
            state.withLock { $0.byName[key] = f }
            return (f, true)
        }
        if let f = match(family: name, bold: false, italic: false) {
            let exact = Self.names(f).contains(key)
            if exact { state.withLock { $0.byName[key] = f } }
            return (f, exact)
        }
        return nil
    }

    /// The font used when a name is not found, as Core Text falls back to Helvetica.
    package func defaultFace() -> FontFace? {
        face(named: "Helvetica")?.face ?? match(family: "sans-serif", bold: false, italic: false)
    }

    private static func names(_ f: FontFace) -> Set<String> {
        [f.postScriptName.lowercased(), f.familyName.lowercased(), f.fullName.lowercased()]
    }

    /// "Helvetica-Bold" → "helvetica", "Arial Bold Italic" → "arial".
    private static func baseName(_ key: String) -> String {
        var k = key
        if let dash = k.firstIndex(of: "-") { k = String(k[..<dash]) }
        for suffix in [" bold italic", " bold oblique", " bold", " italic", " oblique", " regular"] where k.hasSuffix(suffix) {
            k.removeLast(suffix.count)
        }
        return k
    }

    /// fontconfig's best face of `family` with the given weight and slant (loaded).
    package func match(family: String, bold: Bool, italic: Bool) -> FontFace? {
        query { p in
            _ = FcPatternAddString(p, FC_FAMILY, family)
            _ = FcPatternAddInteger(p, FC_WEIGHT, bold ? FC_WEIGHT_BOLD : FC_WEIGHT_REGULAR)
            _ = FcPatternAddInteger(p, FC_SLANT, italic ? FC_SLANT_ITALIC : FC_SLANT_ROMAN)
            _ = FcPatternAddInteger(p, FC_WIDTH, FC_WIDTH_NORMAL)
        }
    }

    /// fontconfig's best face of `family` for a CSS weight (100…900, OpenType usWeightClass),
    /// slant and width (a percentage of normal, CSS `font-stretch`: 62.5 extra-condensed …),
    /// for SVG's font properties (loaded).
    package func match(family: String, weight: Int, italic: Bool, width: Double = 100) -> FontFace? {
        query { p in
            _ = FcPatternAddString(p, FC_FAMILY, family)
            _ = FcPatternAddInteger(p, FC_WEIGHT, FcWeightFromOpenType(Int32(max(1, min(1000, weight)))))
            _ = FcPatternAddInteger(p, FC_SLANT, italic ? FC_SLANT_ITALIC : FC_SLANT_ROMAN)
            _ = FcPatternAddInteger(p, FC_WIDTH, Int32(max(50, min(200, width.isFinite ? width : 100)).rounded()))
        }
    }

    private func match(postScriptName: String) -> FontFace? {
        query { p in _ = FcPatternAddString(p, FC_POSTSCRIPT_NAME, postScriptName) }
    }

    /// fontconfig's best match for the pattern `build` fills (after the configuration's and the
    /// default substitutions), loaded.
    private func query(_ build: (OpaquePointer) -> Void) -> FontFace? {
        let found: (String, Int)? = state.withLock { s in
            guard let config = config(&s), let p = FcPatternCreate() else { return nil }
            defer { FcPatternDestroy(p) }
            build(p)
            _ = FcPatternAddBool(p, FC_SCALABLE, FcTrue)
            _ = FcConfigSubstitute(config, p, FcMatchPattern)
            FcDefaultSubstitute(p)
            var result = FcResultNoMatch
            guard let m = FcFontMatch(config, p, &result) else { return nil }
            defer { FcPatternDestroy(m) }
            return Self.fileAndIndex(m)
        }
        guard let (file, index) = found else { return nil }
        return face(path: file, index: index)
    }

    private static func fileAndIndex(_ pattern: OpaquePointer) -> (String, Int)? {
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
        var index: Int32 = 0
        _ = FcPatternGetInteger(pattern, FC_INDEX, 0, &index)
        return (String(cString: file), Int(index))
    }

    /// The files (and face indices) of the first `limit` fonts of fontconfig's sorted list for
    /// the pattern `pattern` fills (after the configuration's and the default substitutions)
    /// that `accept` takes: the fallback and colour-emoji lookups.
    private func sortedFonts(limit: Int, pattern: (OpaquePointer) -> Void, accept: (OpaquePointer) -> Bool) -> [(String, Int)] {
        state.withLock { s in
            guard let config = config(&s), let p = FcPatternCreate() else { return [] }
            defer { FcPatternDestroy(p) }
            pattern(p)
            _ = FcConfigSubstitute(config, p, FcMatchPattern)
            FcDefaultSubstitute(p)
            var result = FcResultNoMatch
            guard let set = FcFontSort(config, p, FcFalse, nil, &result) else { return [] }
            defer { FcFontSetDestroy(set) }
            var out: [(String, Int)] = []
            for i in 0..<Int(set.pointee.nfont) {
                guard let font = set.pointee.fonts[i], accept(font), let fi = Self.fileAndIndex(font) else { continue }
                out.append(fi)
                if out.count == limit { break }
            }
            return out
        }
    }

    /// The most bounded number of distinct scalars whose fallback font is remembered.
    private static let maxFallbackEntries = 65_536

    /// A font that has a glyph for `scalar`, for text whose own font lacks it: registered fonts
    /// first, then fontconfig's fonts in its order of preference for sans-serif text. Nil when
    /// no configured font has it (the text then shows the primary font's .notdef box).
    package func fallbackFace(for scalar: UInt32) -> FontFace? {
        if let hit = state.withLock({ $0.fallback[scalar] }) { return hit }
        var found: FontFace? = state.withLock { s in s.registered.first { $0.hasGlyph(for: scalar) } }
        if found == nil {
            let cs = FcCharSetCreate()
            defer { FcCharSetDestroy(cs) }
            _ = FcCharSetAddChar(cs, scalar)
            let candidates = sortedFonts(limit: 3, pattern: { p in
                _ = FcPatternAddCharSet(p, FC_CHARSET, cs)
                _ = FcPatternAddString(p, FC_FAMILY, "sans-serif")
                _ = FcPatternAddBool(p, FC_SCALABLE, FcTrue)
            }, accept: { font in
                var fcs: OpaquePointer?
                return FcPatternGetCharSet(font, FC_CHARSET, 0, &fcs) == FcResultMatch && fcs != nil && FcCharSetHasChar(fcs, scalar) == FcTrue
            })
            for (file, index) in candidates {
                if let f = face(path: file, index: index), f.hasGlyph(for: scalar) { found = f; break }
            }
        }
        state.withLock { s in
            if s.fallback.count >= Self.maxFallbackEntries { s.fallback.removeAll(keepingCapacity: true) }
            s.fallback[scalar] = .some(found)
        }
        return found
    }

    /// A bitmap colour font that has `scalar`, for characters shown in emoji presentation
    /// (`prefersColorEmoji`): registered colour fonts first, then fontconfig's fonts for the
    /// generic family "emoji" that are colour fonts (Noto Color Emoji, installed by
    /// tools/install-deps.sh), as Core Text draws emoji from Apple Color Emoji whatever the
    /// text's font. Nil (and one warning) when no colour font has it: the character then takes
    /// the ordinary fallback, an outline emoji font in one colour or the .notdef box.
    package func colorEmojiFace(for scalar: UInt32) -> FontFace? {
        let known: [FontFace]? = state.withLock { $0.colorEmoji }
        var faces = known ?? []
        if known == nil {
            faces = state.withLock { s in s.registered.filter(\.isColorBitmap) }
            let candidates = sortedFonts(limit: 4, pattern: { p in
                _ = FcPatternAddString(p, FC_FAMILY, "emoji")
                _ = FcPatternAddBool(p, FC_COLOR, FcTrue)
            }, accept: { font in
                var color: FcBool = FcFalse
                return FcPatternGetBool(font, FC_COLOR, 0, &color) == FcResultMatch && color == FcTrue
            })
            for (file, index) in candidates {
                if let f = face(path: file, index: index), f.isColorBitmap, !faces.contains(where: { $0 === f }) { faces.append(f) }
            }
            let found = faces
            state.withLock { $0.colorEmoji = found }
        }
        if let f = faces.first(where: { $0.hasGlyph(for: scalar) }) { return f }
        TextDiagnostics.warnOnce("no colour emoji font has the emoji of this text (tools/install-deps.sh installs fonts-noto-color-emoji): they are drawn in one colour from an outline font, or as .notdef (docs/TEXT.md)")
        return nil
    }
}
