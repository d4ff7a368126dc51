/// A point in the scene, metres: x along the lane as the camera sees it
/// (0 at the left edge of the view), y up from the ground.
public struct Point: Equatable {
    public var x: Double, y: Double
    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
}

/// A segment with a radius (limbs, torso) or a disc (segment of length 0).
public struct Capsule: Equatable {
    public var a: Point, b: Point, radius: Double
    public init(_ a: Point, _ b: Point, radius: Double) { self.a = a; self.b = b; self.radius = radius }

    /// The interval of x where the horizontal line at height y is inside the
    /// capsule, or nil. A capsule is convex, so the slice is one interval:
    /// the union of the slices of its two end discs and of its side rectangle.
    public func slice(atY y: Double) -> (low: Double, high: Double)? {
        var low = Double.infinity, high = -Double.infinity
        func disc(_ c: Point) {
            let dy = y - c.y
            let h2 = radius * radius - dy * dy
            if h2 >= 0 {
                let h = h2.squareRoot()
                low = min(low, c.x - h); high = max(high, c.x + h)
            }
        }
        disc(a)
        disc(b)
        let dx = b.x - a.x, dy = b.y - a.y
        let length = (dx * dx + dy * dy).squareRoot()
        if length > 1e-9 {
            // Corners of the side rectangle: a +- n r, b +- n r, n the unit normal.
            let nx = -dy / length * radius, ny = dx / length * radius
            let c0 = Point(a.x + nx, a.y + ny), c1 = Point(b.x + nx, b.y + ny)
            let c2 = Point(b.x - nx, b.y - ny), c3 = Point(a.x - nx, a.y - ny)
            func edge(_ p: Point, _ q: Point) {
                guard (p.y <= y && q.y >= y) || (q.y <= y && p.y >= y) else { return }
                if p.y == q.y {
                    low = min(low, min(p.x, q.x)); high = max(high, max(p.x, q.x))
                } else {
                    let x = p.x + (y - p.y) / (q.y - p.y) * (q.x - p.x)
                    low = min(low, x); high = max(high, x)
                }
            }
            edge(c0, c1); edge(c1, c2); edge(c2, c3); edge(c3, c0)
        }
        return low <= high ? (low, high) : nil
    }
}
