import Testing
import Foundation
import CGL

/// The docs' sample (docs/DRAWING.md, "CAOpenGLLayer"): a triangle drawn with raw OpenGL 3.3
/// core, spinning with the layer time, over an opaque blue clear.
final class SpinningTriangleLayer: CAOpenGLLayer {
    var draws = 0
    var lastSize = (0, 0)
    private var program: GLuint = 0
    private var vao: GLuint = 0

    override init() { super.init() }
    required init(layer: Any) { super.init(layer: layer) }
    required init?(coder: NSCoder) { nil }

    override func draw(inGLContext ctx: CAOpenGLDrawable, forLayerTime t: CFTimeInterval, displayTime: CFTimeInterval) {
        draws += 1
        lastSize = (ctx.pixelWidth, ctx.pixelHeight)
        if program == 0 { program = Self.makeProgram() }
        if vao == 0 { glGenVertexArrays(1, &vao) }
        glClearColor(0, 0, 1, 1)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        glUseProgram(program)
        glUniform1f(glGetUniformLocation(program, "angle"), Float(t))
        glBindVertexArray(vao)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
        glBindVertexArray(0)
        glUseProgram(0)
    }

    static func makeProgram() -> GLuint {
        let vs = """
        #version 330 core
        uniform float angle;
        void main() {
            vec2 p[3] = vec2[3](vec2(0.0, 0.8), vec2(-0.7, -0.6), vec2(0.7, -0.6));
            float c = cos(angle), s = sin(angle);
            gl_Position = vec4(c * p[gl_VertexID].x - s * p[gl_VertexID].y, s * p[gl_VertexID].x + c * p[gl_VertexID].y, 0.0, 1.0);
        }
        """
        let fs = """
        #version 330 core
        out vec4 color;
        void main() { color = vec4(1.0, 0.0, 0.0, 1.0); }
        """
        func shader(_ kind: Int32, _ src: String) -> GLuint {
            let s = glCreateShader(GLenum(kind))
            src.withCString { p in var q: UnsafePointer<GLchar>? = p; glShaderSource(s, 1, &q, nil) }
            glCompileShader(s)
            return s
        }
        let p = glCreateProgram()
        glAttachShader(p, shader(GL_VERTEX_SHADER, vs))
        glAttachShader(p, shader(GL_FRAGMENT_SHADER, fs))
        glLinkProgram(p)
        return p
    }
}

/// CAOpenGLLayer with the Linux spelling of its hooks (extension beyond Apple's API; issue 19):
/// the renderer provides a framebuffer at the layer's pixel size and shows what the hook drew.
@Suite struct OpenGLLayerTests {
    func scene() -> (CALayer, SpinningTriangleLayer) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 80, height: 80)
        let l = SpinningTriangleLayer()
        l.frame = CGRect(x: 8, y: 8, width: 64, height: 64)
        root.addSublayer(l)
        return (root, l)
    }

    func check(_ img: CGImage, _ l: SpinningTriangleLayer) {
        #expect(l.lastSize == (64, 64))
        // The triangle's colour at the layer's centre (40, 40); the clear colour in its corner.
        #expect(img.rgba(40, 40) == RGBA(255, 0, 0))
        #expect(img.rgba(10, 69) == RGBA(0, 0, 255))
        // Outside the layer: the renderer's white.
        #expect(img.rgba(2, 2) == RGBA(255, 255, 255))
    }

    @Test("The spinning triangle sample renders headless on the default backend: red centre, blue corner")
    func triangleDefaultBackend() throws {
        let (root, l) = scene()
        let img = try RenderHarness.render(root, size: CGSize(width: 80, height: 80))
        check(img, l)
    }

    @Test("The same on the OpenGL backend; GL's up is the layer's visual up (apex at the top)")
    func triangleOpenGLBackend() throws {
        let (root, l) = scene()
        var o = CARenderer.Options(backend: .openGL)
        o.backend = .openGL
        let r = try CARenderer(offscreenSize: CGSize(width: 80, height: 80), scale: 1, maxTextureSize: nil, options: o)
        r.clearColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        r.layer = root
        let img = try RenderHarness.frame(r, at: 0)
        check(img, l)
        // Apex at GL y = 0.8 → 3.2 px below the layer's top; just under it is red, above is blue.
        #expect(img.rgba(40, 8 + 8) == RGBA(255, 0, 0))
        #expect(img.rgba(40, 8 + 2) == RGBA(0, 0, 255))
    }

    @Test("Synchronous: drawn once, again after setNeedsDisplay(); asynchronous: every frame")
    func redrawPolicy() throws {
        let (root, l) = scene()
        let r = try CARenderer(offscreenSize: CGSize(width: 80, height: 80), scale: 1, options: .init(backend: .openGL))
        r.layer = root
        _ = try RenderHarness.frame(r, at: 0)
        _ = try RenderHarness.frame(r, at: 0.5)
        #expect(l.draws == 1)
        l.setNeedsDisplay()
        CATransaction.flush()
        _ = try RenderHarness.frame(r, at: 0.6)
        #expect(l.draws == 2)
        l.isAsynchronous = true
        CATransaction.flush()
        _ = try RenderHarness.frame(r, at: 0.7)
        _ = try RenderHarness.frame(r, at: 0.8)
        _ = try RenderHarness.frame(r, at: 0.9)
        #expect(l.draws == 5)
    }
}
