/// `CATransform3D` as 16 numbers, `m11 m12 m13 m14 m21 … m44` in the order the struct declares
/// them: the form the scene format's encoder writes (docs/SCENE-FORMAT.md, "Transforms").
/// Apple's `CATransform3D` is not `Codable`; this is an extension beyond its API. (Scene files
/// may also use a readable form, `{"rotateZ": 0.5, …}`; the scene reader reads that, not this.)
extension CATransform3D: Codable {
    public init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        var m: [CGFloat] = []
        while !c.isAtEnd, m.count <= 16 { m.append(try c.decode(CGFloat.self)) }
        guard m.count == 16 else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription:
                "a CATransform3D is 16 numbers (m11 … m44); found \(m.count > 16 ? "more" : "\(m.count)")")
        }
        self.init(m11: m[0], m12: m[1], m13: m[2], m14: m[3], m21: m[4], m22: m[5], m23: m[6], m24: m[7],
                  m31: m[8], m32: m[9], m33: m[10], m34: m[11], m41: m[12], m42: m[13], m43: m[14], m44: m[15])
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        for v in [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44] { try c.encode(v) }
    }
}
