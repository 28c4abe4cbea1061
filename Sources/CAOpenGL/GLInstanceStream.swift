internal import CGL
import CAFrame

/// One vertex buffer per pipeline, refilled each frame (orphaned with glBufferData so the
/// driver never waits for the previous frame), read as per-instance vec4 attributes.
final class GLInstanceStream {
    let buffer: GLuint
    let vec4sPerInstance: Int
    private var capacity = 0

    /// A stream for instances of `layout` (the frame format's single declaration of it).
    init(_ layout: InstanceLayout) {
        var b: GLuint = 0
        glGenBuffers(1, &b)
        buffer = b
        vec4sPerInstance = layout.vec4Count
    }

    deinit {
        var b = buffer
        glDeleteBuffers(1, &b)
    }

    var stride: Int { vec4sPerInstance * 16 }

    func upload<T>(_ items: [T]) {
        precondition(MemoryLayout<T>.stride == stride, "instance layout mismatch")
        glBindBuffer(E(GL_ARRAY_BUFFER), buffer)
        let bytes = items.count * stride
        guard bytes > 0 else { return }
        items.withUnsafeBytes { raw in
            if bytes > capacity {
                capacity = max(bytes, capacity * 2)
                glBufferData(E(GL_ARRAY_BUFFER), capacity, nil, E(GL_STREAM_DRAW))
            } else {
                glBufferData(E(GL_ARRAY_BUFFER), capacity, nil, E(GL_STREAM_DRAW))
            }
            glBufferSubData(E(GL_ARRAY_BUFFER), 0, bytes, raw.baseAddress)
        }
        glCheck("instance upload")
    }

    /// Points attributes 0…n−1 at instance `first` (GL 3.3 has no base-instance draw), advancing
    /// every `divisor` instances of the draw (the particle pipeline's one record per draw).
    func bind(first: Int, divisor: Int = 1) {
        glBindBuffer(E(GL_ARRAY_BUFFER), buffer)
        for i in 0..<vec4sPerInstance {
            let loc = GLuint(i)
            glEnableVertexAttribArray(loc)
            glVertexAttribPointer(loc, 4, E(GL_FLOAT), GLboolean(GL_FALSE), GLsizei(stride),
                                  UnsafeRawPointer(bitPattern: first * stride + i * 16))
            glVertexAttribDivisor(loc, GLuint(divisor))
        }
        // Attributes a wider stream left enabled are turned off too.
        for i in vec4sPerInstance..<max(vec4sPerInstance, InstanceLayout.maxVec4Count) { glDisableVertexAttribArray(GLuint(i)) }
    }
}
