// Tolerant comparisons for floating-point geometry.

func close(_ a: CGFloat, _ b: CGFloat, _ tol: CGFloat = 1e-9) -> Bool { abs(a - b) <= tol }

func close(_ a: CGPoint, _ b: CGPoint, _ tol: CGFloat = 1e-9) -> Bool {
    abs(a.x - b.x) <= tol && abs(a.y - b.y) <= tol
}

func close(_ a: CGRect, _ b: CGRect, _ tol: CGFloat = 1e-9) -> Bool {
    close(a.minX, b.minX, tol) && close(a.minY, b.minY, tol)
        && close(a.maxX, b.maxX, tol) && close(a.maxY, b.maxY, tol)
}

/// 4/3·(√2 − 1), the quarter-circle control distance.
let kappa: CGFloat = 4.0 / 3.0 * (2.0.squareRoot() - 1)
