/// `CGAffineTransform` as six numbers `[a, b, c, d, tx, ty]`: the order Apple's Swift overlay
/// encodes it in on Apple platforms (an unkeyed container of the six fields), and the value of
/// the `affine` part of a scene file's transform (docs/SCENE-FORMAT.md, "Transforms"), so an
/// encoded transform can be pasted into `{"affine": …}`.
extension CGAffineTransform: Codable {
    public init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        a = try c.decode(CGFloat.self)
        b = try c.decode(CGFloat.self)
        self.c = try c.decode(CGFloat.self)
        d = try c.decode(CGFloat.self)
        tx = try c.decode(CGFloat.self)
        ty = try c.decode(CGFloat.self)
        guard c.isAtEnd else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "a CGAffineTransform is six numbers [a, b, c, d, tx, ty]; found more")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(a)
        try c.encode(b)
        try c.encode(self.c)
        try c.encode(d)
        try c.encode(tx)
        try c.encode(ty)
    }
}
