import Foundation
import CoreText

/// The layout of a text layer, kept per (string, attributes, width) — issue 20 "Rendering":
/// "Layout cached per (string, attributes, width); an animated `fontSize` re-lays out per frame
/// only what changed".
///
/// Each layer owns one cache, shared with its presentation and render copies (`init(layer:)`
/// hands it on), so the backing store's `display()` at commit and the renderer's glyph atlas
/// (CARender `GlyphEmitter`) lay a frame's text out once between them, and an unchanged layer
/// is not laid out again on later frames. The key is everything `textLayerLines()` reads:
/// the string, the font, `fontSize`, `foregroundColor`, wrapping, truncation, alignment and the
/// bounds (their width for line breaking, their height for the lines that show). A layer whose
/// animated `fontSize` takes a new value each frame misses once per frame; its neighbours hit.
///
/// The cache holds the last two layouts (the model's and an animating presentation copy's are
/// both drawn in one frame), and lives and dies with its layer, so it keeps no font alive that
/// the layer itself does not (`CATextLayerRetentionTests`). An `NSMutableAttributedString` is
/// never cached: it can change in place without a new value being set.
package final class TextLayoutCache: @unchecked Sendable {
    /// What a layout depends on; compared by value (strings, names, sizes, colours) or by
    /// identity (fonts given as objects, immutable attributed strings).
    struct Key: Equatable {
        enum Text: Equatable {
            case plain(String)
            case attributed(ObjectIdentifier)
        }
        enum Font: Equatable {
            case none
            case name(String)
            case object(ObjectIdentifier)
        }
        var text: Text
        var font: Font
        var fontSize: CGFloat
        var foregroundColor: CGColor?
        var isWrapped: Bool
        var alignmentMode: CATextLayerAlignmentMode
        var truncationMode: CATextLayerTruncationMode
        var bounds: CGRect
    }

    private let lock = NSLock()
    /// Most recent first; each entry holds the objects its key names by identity, so an
    /// identifier cannot be reused while the entry lives.
    private var entries: [(key: Key, objects: [AnyObject], lines: TextLayerLines?)] = []
    static let capacity = 2

    package init() {}

    /// Layouts this cache made (its misses, the uncachable included), for tests: the renderer
    /// may build on another thread, so the count lives with the layer, not the task.
    package var layoutsMade: Int { lock.lock(); defer { lock.unlock() }; return made }
    private var made = 0

    /// The key for a layer's state and bounds, and the objects it names by identity; nil when
    /// the layout cannot be cached (a mutable attributed string, a value of another type).
    static func key(_ s: TextLayerState, bounds: CGRect) -> (Key, [AnyObject])? {
        var objects: [AnyObject] = []
        let text: Key.Text
        switch s.string {
        case let str as String: text = .plain(str)
        case let a as NSAttributedString:
            guard !(a is NSMutableAttributedString) else { return nil }
            text = .attributed(ObjectIdentifier(a)); objects.append(a)
        default: return nil
        }
        let font: Key.Font
        switch s.font {
        case nil: font = .none
        case let name as String: font = .name(name)
        case let name as NSString: font = .name(name as String)
        case let object?: font = .object(ObjectIdentifier(object)); objects.append(object)
        }
        return (Key(text: text, font: font, fontSize: s.fontSize, foregroundColor: s.foregroundColor, isWrapped: s.isWrapped,
                    alignmentMode: s.alignmentMode, truncationMode: s.truncationMode, bounds: bounds), objects)
    }

    /// The cached layout for `s` in `bounds`, or `make()`'s (then kept).
    func lines(_ s: TextLayerState, bounds: CGRect, make: () -> TextLayerLines?) -> TextLayerLines? {
        guard let (key, objects) = Self.key(s, bounds: bounds) else {
            lock.lock(); made += 1; lock.unlock()
            return make()
        }
        lock.lock()
        if let i = entries.firstIndex(where: { $0.key == key }) {
            let hit = entries[i]
            if i > 0 { entries.remove(at: i); entries.insert(hit, at: 0) }
            lock.unlock()
            return hit.lines
        }
        made += 1
        lock.unlock()
        let lines = make()
        lock.lock()
        entries.insert((key, objects, lines), at: 0)
        if entries.count > Self.capacity { entries.removeLast(entries.count - Self.capacity) }
        lock.unlock()
        return lines
    }
}
