import Testing

/// The CTM, graphics state stack and current path in device space (Apple: CGContext "Managing
/// Graphics State", "Transforming User Space", CGContextCopyPath: "in user space").
@Suite struct CGContextStateTests {
    @Test("translate, scale, rotate and concatenate compose like Apple's CGContext*CTM")
    func ctm() {
        let ctx = rgbaContext(10, 10)
        ctx.translateBy(x: 5, y: 2)
        ctx.scaleBy(x: 2, y: 3)
        #expect(ctx.convertToDeviceSpace(CGPoint(x: 1, y: 1)) == CGPoint(x: 7, y: 5))
        #expect(close(ctx.convertToUserSpace(CGPoint(x: 7, y: 5)), CGPoint(x: 1, y: 1), 1e-12))
        #expect(ctx.convertToDeviceSpace(CGSize(width: 1, height: 1)) == CGSize(width: 2, height: 3))
        #expect(ctx.convertToDeviceSpace(CGRect(x: 0, y: 0, width: 1, height: 1)) == CGRect(x: 5, y: 2, width: 2, height: 3))
        ctx.concatenate(CGAffineTransform(translationX: 1, y: 0))
        #expect(ctx.ctm == CGAffineTransform(a: 2, b: 0, c: 0, d: 3, tx: 7, ty: 2))
        let r = rgbaContext(1, 1)
        r.rotate(by: .pi / 2)
        let p = r.convertToDeviceSpace(CGPoint(x: 1, y: 0))
        #expect(abs(p.x) < 1e-12 && abs(p.y - 1) < 1e-12)
    }

    @Test("the CTM applies to drawing: a unit rect scaled by 2 fills 2 × 2 pixels")
    func ctmDraws() {
        let ctx = rgbaContext(4, 4)
        ctx.scaleBy(x: 2, y: 2)
        ctx.setFillColor(gray: 1, alpha: 1)
        ctx.fill(CGRect(x: 1, y: 1, width: 1, height: 1))
        // Device rect (2, 2)–(4, 4), y up: rows 0 and 1 from the top, columns 2 and 3.
        #expect(bytes(ctx, 2, 0) == [255, 255, 255, 255] && bytes(ctx, 3, 1) == [255, 255, 255, 255])
        #expect(bytes(ctx, 1, 0) == [0, 0, 0, 0] && bytes(ctx, 2, 2) == [0, 0, 0, 0])
    }

    @Test("save/restore brings back the CTM and colours; the path is not part of the state")
    func saveRestore() {
        let ctx = rgbaContext(2, 1)
        ctx.saveGState()
        ctx.translateBy(x: 1, y: 0)
        ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        ctx.move(to: .zero)
        ctx.restoreGState()
        #expect(ctx.ctm == .identity)
        #expect(!ctx.isPathEmpty)
        ctx.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(bytes(ctx, 0, 0) == [0, 0, 0, 255])           // default fill: opaque black
    }

    @Test("the path is stored in device space: a CTM change after adding points does not move them")
    func pathInDeviceSpace() {
        let ctx = rgbaContext(4, 4)
        ctx.translateBy(x: 2, y: 0)
        ctx.addRect(CGRect(x: 0, y: 0, width: 1, height: 4))
        ctx.translateBy(x: -2, y: 0)                           // undo the translation
        #expect(ctx.boundingBoxOfPath == CGRect(x: 2, y: 0, width: 1, height: 4))
        ctx.translateBy(x: 1, y: 0)
        #expect(ctx.boundingBoxOfPath == CGRect(x: 1, y: 0, width: 1, height: 4))   // user space now
        #expect(ctx.currentPointOfPath == CGPoint(x: 1, y: 0))
        ctx.setFillColor(gray: 1, alpha: 1)
        ctx.fillPath()
        #expect(bytes(ctx, 2, 0)[3] == 255 && bytes(ctx, 1, 0)[3] == 0 && bytes(ctx, 3, 0)[3] == 0)
        #expect(ctx.isPathEmpty)
    }

    @Test("unbalanced restoreGState is ignored with a warning")
    func unbalancedRestore() {
        let ctx = rgbaContext(1, 1)
        ctx.translateBy(x: 3, y: 0)
        let (_, warnings) = CGDiagnostics.capture { ctx.restoreGState() }
        #expect(ctx.ctm == CGAffineTransform(translationX: 3, y: 0))
        #expect(warnings.contains { $0.contains("restoreGState") })
    }

    @Test("a million nested saves stay bounded: states past the cap are not stored, with a warning")
    func millionSaves() {
        let ctx = rgbaContext(1, 1)
        let (_, warnings) = CGDiagnostics.capture {
            for _ in 0..<1_000_000 { ctx.saveGState() }
        }
        #expect(ctx.savedStates.count == CGContext.maxSavedStates)
        #expect(warnings.contains { $0.contains("saveGState") })
        ctx.translateBy(x: 1, y: 0)
        for _ in 0..<1_000_000 { ctx.restoreGState() }
        #expect(ctx.ctm == .identity)
        #expect(ctx.savedStates.isEmpty)
    }

    @Test("pathContains(_:mode:) answers in user space for fills (both rules) and strokes")
    func pathContains() {
        let ctx = rgbaContext(10, 10)
        ctx.translateBy(x: 3, y: 0)
        ctx.addRect(CGRect(x: 0, y: 0, width: 4, height: 4))
        ctx.addRect(CGRect(x: 1, y: 1, width: 2, height: 2))
        #expect(ctx.pathContains(CGPoint(x: 2, y: 2), mode: .fill))
        #expect(!ctx.pathContains(CGPoint(x: 2, y: 2), mode: .eoFill))
        #expect(ctx.pathContains(CGPoint(x: 0.5, y: 2), mode: .eoFill))
        #expect(!ctx.pathContains(CGPoint(x: 5, y: 2), mode: .fill))
        ctx.setLineWidth(2)
        #expect(ctx.pathContains(CGPoint(x: 4.5, y: 2), mode: .stroke))       // within 1 of the edge x = 4
        #expect(!ctx.pathContains(CGPoint(x: 6, y: 2), mode: .stroke))
        #expect(!ctx.pathContains(CGPoint(x: 6, y: 2), mode: .fillStroke))
    }

    @Test("the path reads back in user space under a changed CTM (CGContextCopyPath)")
    func pathReadBack() {
        let ctx = rgbaContext(4, 4)
        ctx.scaleBy(x: 2, y: 2)
        ctx.move(to: CGPoint(x: 1, y: 1))
        ctx.addLine(to: CGPoint(x: 2, y: 1))
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 1, y: 1)); p.addLine(to: CGPoint(x: 2, y: 1))
        #expect(ctx.path == p)
        #expect(ctx.currentPointOfPath == CGPoint(x: 2, y: 1))
    }
}
