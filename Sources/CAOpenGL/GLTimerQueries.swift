internal import CGL

/// GPU time of a stretch of GL commands from timer queries (`GL_TIME_ELAPSED`, core since
/// OpenGL 3.3 through ARB_timer_query). A ring of query objects, so a frame's result is read
/// when it is ready instead of stalling the pipeline for it. Extension beyond Apple's API, for
/// `carender bench`. Use with the context current, on its thread.
package final class GLTimerQueries {
    var queries: [GLuint]
    /// Queries begun and ended whose results have not been read, oldest first.
    var inFlight: [GLuint] = []
    var free: [GLuint]
    var active: GLuint?

    /// Whether the current context counts elapsed time (`GL_QUERY_COUNTER_BITS` of
    /// `GL_TIME_ELAPSED` is not 0; a driver may report 0 bits, meaning no timer).
    package static var isSupported: Bool {
        var bits: GLint = 0
        glGetQueryiv(E(GL_TIME_ELAPSED), E(GL_QUERY_COUNTER_BITS), &bits)
        _ = GLDiagnostics.takeFirstError()
        return bits > 0
    }

    package init(count: Int = 8) {
        queries = [GLuint](repeating: 0, count: max(2, count))
        glGenQueries(GLsizei(queries.count), &queries)
        free = queries
    }

    deinit { glDeleteQueries(GLsizei(queries.count), &queries) }

    /// Starts timing; returns false (and times nothing) while every query awaits its result.
    @discardableResult
    package func begin() -> Bool {
        guard active == nil, let q = free.popLast() else { return false }
        glBeginQuery(E(GL_TIME_ELAPSED), q)
        active = q
        return true
    }

    package func end() {
        guard let q = active else { return }
        glEndQuery(E(GL_TIME_ELAPSED))
        inFlight.append(q)
        active = nil
    }

    /// Seconds of the finished queries, oldest first; `wait` blocks for all in flight.
    package func collect(wait: Bool = false) -> [Double] {
        var out: [Double] = []
        while let q = inFlight.first {
            if !wait {
                var ready: GLuint = 0
                glGetQueryObjectuiv(q, E(GL_QUERY_RESULT_AVAILABLE), &ready)
                if ready == 0 { break }
            }
            var ns: GLuint64 = 0
            glGetQueryObjectui64v(q, E(GL_QUERY_RESULT), &ns)
            out.append(Double(ns) * 1e-9)
            inFlight.removeFirst()
            free.append(q)
        }
        return out
    }
}
