import Testing
import Foundation
import CAFrame

/// Instance layouts are declared once, in Swift (issue 16): each pipeline's vertex shader must
/// declare exactly the struct's fields, in order, as `layout(location = k) in vec4 i_<field>`,
/// and read flag bits through the `CA_FLAG_…` names the backend defines from `InstanceFlags`.
/// This test reads the GLSL and fails on drift.
@Suite struct InstanceLayoutTests {
    static let shaders = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Shaders").standardized

    /// The `in vec4` attributes of a vertex shader, by location.
    static func attributes(ofShader stem: String) throws -> [Int: String] {
        let text = try String(contentsOf: shaders.appendingPathComponent("\(stem).vert"), encoding: .utf8)
        var out: [Int: String] = [:]
        let re = try NSRegularExpression(pattern: #"layout\s*\(\s*location\s*=\s*(\d+)\s*\)\s*in\s+vec4\s+i_(\w+)\s*;"#)
        for m in re.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let loc = Int(text[Range(m.range(at: 1), in: text)!])!
            out[loc] = String(text[Range(m.range(at: 2), in: text)!])
        }
        return out
    }

    @Test(arguments: InstanceLayout.all.map(\.shader))
    func vertexShaderDeclaresTheStructsFieldsInOrder(shader: String) throws {
        let layout = try #require(InstanceLayout.all.first { $0.shader == shader })
        let declared = try Self.attributes(ofShader: shader)
        #expect(declared.count == layout.vec4Count, "\(shader).vert declares \(declared.count) attributes, the struct has \(layout.vec4Count)")
        for (k, name) in layout.attributes.enumerated() {
            #expect(declared[k] == name, "\(shader).vert location \(k): \(declared[k] ?? "nothing"), the struct says \(name)")
        }
        #expect(layout.stride == 16 * layout.vec4Count)
    }

    @Test func shadersReadFlagsByNameOnly() throws {
        for stem in ["box", "image", "gradient"] {
            let text = try String(contentsOf: Self.shaders.appendingPathComponent("\(stem).frag"), encoding: .utf8)
            let re = try NSRegularExpression(pattern: #"v_flags\s*(&|>>)\s*\d"#)
            #expect(re.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text)) == 0,
                    "\(stem).frag reads a flag bit by number instead of its CA_FLAG_ name")
        }
        for name in ["CA_FLAG_EDGE_MASK 15", "CA_FLAG_CONTINUOUS 16", "CA_FLAG_FILL_ONLY 32", "CA_FLAG_BORDER_ONLY 64"] {
            #expect(InstanceFlags.glslDefinitions.contains("#define \(name)\n"))
        }
    }
}
