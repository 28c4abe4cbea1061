// libFuzzer target: SVG path data (`d`) of arbitrary bytes, imported as a path, then stroked,
// dashed and measured as a shape layer's path is. The bytes go into one `<path d="…">` with the
// characters that would end the attribute or the element replaced by spaces, so every input
// reaches the path-data parser rather than the XML reader.
import CASVG
import CFuzzDriver
import CoreGraphics
import Foundation
import QuartzCore

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzOne(_ bytes: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var d = [UInt8]()
    d.reserveCapacity(size)
    for i in 0..<size {
        let b = bytes![i]
        d.append(b == UInt8(ascii: "\"") || b == UInt8(ascii: "<") || b == UInt8(ascii: "&") || b < 0x20 || b >= 0x80 ? 0x20 : b)
    }
    let svg = "<svg xmlns='http://www.w3.org/2000/svg' width='64' height='64'><path stroke='black' stroke-dasharray='3 1' d=\"" + String(decoding: d, as: UTF8.self) + "\"/></svg>"
    guard let doc = try? SVGDocument(string: svg) else { return 0 }
    var stack = [doc.layer]
    while let l = stack.popLast() {
        if let shape = l as? CAShapeLayer, let path = shape.path {
            _ = path.boundingBoxOfPath
            _ = path.contains(CGPoint(x: 32, y: 32))
            _ = path.copy(strokingWithWidth: 3, lineCap: .round, lineJoin: .miter, miterLimit: 10)
            _ = path.copy(dashingWithPhase: 0.5, lengths: [3, 1])
        }
        stack += l.sublayers ?? []
    }
    return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOne))
