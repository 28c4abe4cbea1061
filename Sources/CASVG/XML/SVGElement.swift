import Foundation

/// One element of the parsed document: the XML as data, before any SVG meaning is applied.
/// A class because `<use>`, `url(#id)` and `href` refer to elements by identity.
final class SVGElement {
    /// Local name: `svg:rect` and `rect` are both `rect`; elements of other namespaces keep
    /// their prefix (`sodipodi:namedview`) so they are never mistaken for SVG.
    let name: String
    /// Attributes by local name; `xlink:href` is stored as `href` (SVG 2 accepts both).
    var attributes: [String: String]
    var children: [SVGElement] = []
    weak var parent: SVGElement?
    /// Character data: of `<style>`, and of text nodes (`#text` children of text elements).
    var text = ""
    /// The name of a text node: character data inside `<text>`, `<tspan>` or `<textPath>`.
    static let textNodeName = "#text"

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    var id: String? { attributes["id"] }
}
