/// SVG-style path data for `CGPath` values (docs/SCENE-FORMAT.md, "Paths"): the commands
/// M/m, L/l, H/h, V/v, C/c, Q/q and Z/z of SVG 1.1 §8.3 (moveto, lineto, horizontal and
/// vertical lineto, cubic and quadratic Bézier curveto, closepath), upper case absolute and
/// lower case relative, numbers separated by spaces and/or commas, repeated argument groups
/// allowed. Smooth curves (S, T) and arcs (A) are refused with a message: `CGPath` has no such
/// elements, and writing them as curves is the encoder's form anyway.
enum PathData {
    struct Failure: Error { var message: String }

    static func parse(_ text: String, maxElements: Int) -> Result<[PathElement], Failure> {
        let chars = Array(text.utf8)
        var i = 0
        var elements: [PathElement] = []
        var current = CGPoint.zero
        var subpathStart = CGPoint.zero
        var command: UInt8? = nil
        var letterAt = 0

        func skipSeparators() {
            while i < chars.count, chars[i] == 0x20 || chars[i] == 0x2C || chars[i] == 0x09 || chars[i] == 0x0A || chars[i] == 0x0D { i += 1 }
        }
        func isNumberStart(_ c: UInt8) -> Bool {
            (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x2B || c == 0x2E
        }
        func readNumber() -> Double? {
            skipSeparators()
            let start = i
            if i < chars.count, chars[i] == 0x2D || chars[i] == 0x2B { i += 1 }
            var sawDigit = false, sawDot = false
            while i < chars.count {
                let c = chars[i]
                if c >= 0x30 && c <= 0x39 { sawDigit = true; i += 1 }
                else if c == 0x2E && !sawDot { sawDot = true; i += 1 }
                else { break }
            }
            if sawDigit, i < chars.count, chars[i] == 0x65 || chars[i] == 0x45 {
                let save = i
                i += 1
                if i < chars.count, chars[i] == 0x2D || chars[i] == 0x2B { i += 1 }
                var expDigits = false
                while i < chars.count, chars[i] >= 0x30 && chars[i] <= 0x39 { i += 1; expDigits = true }
                if !expDigits { i = save }
            }
            guard sawDigit, i - start <= 400, let d = Double(String(decoding: chars[start..<i], as: UTF8.self)), d.isFinite else {
                i = start
                return nil
            }
            return d
        }
        func fail(_ m: String) -> Result<[PathElement], Failure> {
            .failure(Failure(message: "path data at character \(i + 1): \(m)"))
        }

        while true {
            skipSeparators()
            guard i < chars.count else { break }
            guard elements.count < maxElements else {
                return .failure(Failure(message: "more than \(maxElements) path elements (limit maxPathElements)"))
            }
            let c = chars[i]
            if !isNumberStart(c) {
                letterAt = i
                i += 1
                command = c
                if c == 0x5A || c == 0x7A {  // Z z
                    elements.append(.close)
                    current = subpathStart
                    continue
                }
            } else if command == nil || command == 0x5A || command == 0x7A {
                return fail("a number where a command letter (M, L, H, V, C, Q, Z) was expected")
            }
            guard let cmd = command else { return fail("missing command") }
            let relative = cmd >= 0x61
            let base = relative ? current : .zero
            func pt() -> CGPoint? {
                guard let x = readNumber(), let y = readNumber() else { return nil }
                return CGPoint(x: base.x + x, y: base.y + y)
            }
            switch cmd | 0x20 {  // lower-cased
            case 0x6D:  // m
                guard let p = pt() else { return fail("moveto needs x y") }
                elements.append(.move(p)); current = p; subpathStart = p
                command = relative ? 0x6C : 0x4C  // further pairs are linetos (SVG 1.1 §8.3.2)
            case 0x6C:  // l
                guard let p = pt() else { return fail("lineto needs x y") }
                elements.append(.line(p)); current = p
            case 0x68:  // h
                guard let x = readNumber() else { return fail("horizontal lineto needs x") }
                let p = CGPoint(x: relative ? current.x + x : x, y: current.y)
                elements.append(.line(p)); current = p
            case 0x76:  // v
                guard let y = readNumber() else { return fail("vertical lineto needs y") }
                let p = CGPoint(x: current.x, y: relative ? current.y + y : y)
                elements.append(.line(p)); current = p
            case 0x63:  // c
                guard let c1 = pt(), let c2 = pt(), let p = pt() else { return fail("curveto needs x1 y1 x2 y2 x y") }
                elements.append(.cubic(c1, c2, p)); current = p
            case 0x71:  // q
                guard let c1 = pt(), let p = pt() else { return fail("quadratic curveto needs x1 y1 x y") }
                elements.append(.quad(c1, p)); current = p
            case 0x73, 0x74, 0x61:
                i = letterAt
                return fail("command '\(Character(Unicode.Scalar(cmd)))' (smooth curve or arc) is not supported; write it with C or Q")
            default:
                i = letterAt
                return fail("unknown command '\(Character(Unicode.Scalar(cmd)))'")
            }
        }
        return .success(elements)
    }

    /// Absolute commands with numbers that read back exactly.
    static func format(_ elements: [PathElement]) -> String {
        func n(_ v: CGFloat) -> String { JSONWriter.number(Double(v)) }
        func p(_ q: CGPoint) -> String { "\(n(q.x)) \(n(q.y))" }
        return elements.map { e -> String in
            switch e {
            case .move(let a): return "M \(p(a))"
            case .line(let a): return "L \(p(a))"
            case .quad(let c, let a): return "Q \(p(c)) \(p(a))"
            case .cubic(let c1, let c2, let a): return "C \(p(c1)) \(p(c2)) \(p(a))"
            case .close: return "Z"
            }
        }.joined(separator: " ")
    }
}
