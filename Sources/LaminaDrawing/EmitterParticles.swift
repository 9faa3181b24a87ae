import Foundation
import LaminaCore

// The particles of an emitter layer as a pure function of its properties and its local time (docs/semantics.md,
// "Emitter layers"): a cell's particle k is born at cell time k / rate (rate = the cell's birthRate x the layer's),
// every random range of it draws from a counter-based generator keyed by the layer's seed, the cell and k, and its
// place is the emitter position + velocity x age + acceleration x age^2 / 2. Nothing is carried from frame to frame,
// so frames at any time may be made in any order, and a frame costs the particles alive in it.

/// One live particle at one time, in the emitter layer's space.
public struct EmitterParticle: Sendable, Equatable {
    /// The particle's centre (points, y down).
    public var position: CGPoint
    /// Its depth (emitterZPosition, the cuboid's or sphere's depth, zAcceleration); drawn flattened.
    public var z: CGFloat
    /// Radians it has turned (spin x age), clockwise on screen.
    public var angle: CGFloat
    /// Multiplies the contents' size in points (the layer's scale and a parent's included); above 0.
    public var scale: CGFloat
    /// The colour multiplying its contents (straight components, each in 0...1).
    public var color: Color
    /// The cell, as an index of `EmitterStyle.flattenedCells`.
    public var cell: Int
    /// Its number k among its cell's (or, for a sub-cell, its parent's) births.
    public var index: Int
    /// Seconds since its birth, on its cell's clock.
    public var age: Double
    /// When it was born, in the layer's local time (orders oldestFirst and oldestLast).
    public var birth: Double
}

extension EmitterStyle {
    /// The most particles one emitter layer draws at a time (a documented limit): those beyond it are not drawn.
    public static let mostParticles = 100_000
    /// The deepest nesting of cells (a cell's sub-cells are one level down) that makes particles; deeper cells make
    /// none.
    public static let mostCellDepth = 4
    /// The most cells, at every depth together, that make particles; later ones make none.
    public static let mostCells = 256

    /// Every cell, depth first (a cell, then its sub-cells), as far as `mostCellDepth` and `mostCells` allow:
    /// `EmitterParticle.cell` indexes it.
    public var flattenedCells: [EmitterCellStyle] {
        var result: [EmitterCellStyle] = []
        func walk(_ cells: [EmitterCellStyle], depth: Int) {
            guard depth < Self.mostCellDepth else { return }
            for cell in cells where result.count < Self.mostCells {
                result.append(cell)
                walk(cell.emitterCells, depth: depth + 1)
            }
        }
        walk(emitterCells, depth: 0)
        return result
    }

    /// The particles alive at the layer's local time `time`, in drawing order (`renderMode`), at most `limit`.
    public func particles(at time: Double, limit: Int = EmitterStyle.mostParticles) -> [EmitterParticle] {
        guard time.isFinite, birthRate.isFinite, birthRate > 0, lifetime.isFinite, lifetime > 0, limit > 0 else {
            return []
        }
        var maker = ParticleMaker(style: self, limit: min(limit, Self.mostParticles))
        var flat = 0
        for cell in emitterCells {
            guard flat < Self.mostCells else { break }
            maker.top(cell, flat: flat, time: time)
            flat += Self.cellCount(cell, depth: 0, budget: Self.mostCells - flat)
        }
        var particles = maker.lists.flatMap { $0 }
        switch renderMode {
        case .unordered, .additive:
            break
        case .oldestFirst:
            particles = Self.stableSorted(particles) { $0.birth < $1.birth }
        case .oldestLast:
            particles = Self.stableSorted(particles) { $0.birth > $1.birth }
        case .backToFront:
            particles = Self.stableSorted(particles) { $0.z < $1.z }
        }
        return particles
    }

    /// How many entries `cell` and its sub-cells take in `flattenedCells` (within `budget`).
    static func cellCount(_ cell: EmitterCellStyle, depth: Int, budget: Int) -> Int {
        guard depth < mostCellDepth, budget > 0 else { return 0 }
        var count = 1
        for sub in cell.emitterCells where count < budget {
            count += cellCount(sub, depth: depth + 1, budget: budget - count)
        }
        return count
    }

    private static func stableSorted(_ items: [EmitterParticle], by before: (EmitterParticle, EmitterParticle) -> Bool)
        -> [EmitterParticle]
    {
        items.enumerated().sorted { a, b in
            if before(a.element, b.element) { return true }
            if before(b.element, a.element) { return false }
            return a.offset < b.offset
        }.map(\.element)
    }
}

/// The counter-based generator: every draw is a hash of its key and its number, so any particle's draws are made
/// without the others' (SplitMix64's finaliser).
enum ParticleRandom {
    @inline(__always) static func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The key of particle `k` of flattened cell `cell` under `parent` (the layer's seed for a top-level cell, the
    /// parent particle's key for a sub-cell).
    @inline(__always) static func key(parent: UInt64, cell: Int, k: Int) -> UInt64 {
        mix(mix(parent ^ (UInt64(truncatingIfNeeded: cell) &* 0xD6E8_FEB8_6659_FD93)) ^ UInt64(truncatingIfNeeded: k))
    }

    /// Draw `n` of `key`, uniform in 0 ..< 1.
    @inline(__always) static func unit(_ key: UInt64, _ n: UInt64) -> Double {
        Double(mix(key &+ n &* 0x9E37_79B9_7F4A_7C15) >> 11) * 0x1p-53
    }

    /// Draw `n` of `key`, uniform in -1 ..< 1.
    @inline(__always) static func signed(_ key: UInt64, _ n: UInt64) -> Double {
        2 * unit(key, n) - 1
    }
}

/// Draw numbers of a particle's random values.
private enum Draw: UInt64 {
    case lifetime, velocity, longitude, scale, spin, red, green, blue, alpha, shapeA, shapeB, shapeC, shapeChoice
}

/// The state of one particle at birth that its sub-cells inherit, and its motion.
private struct Motion {
    var origin: (x: Double, y: Double, z: Double)
    var velocity: (x: Double, y: Double, z: Double)
    var acceleration: (x: Double, y: Double, z: Double)

    func position(_ age: Double) -> (x: Double, y: Double, z: Double) {
        let h = age * age / 2
        return (origin.x + velocity.x * age + acceleration.x * h, origin.y + velocity.y * age + acceleration.y * h,
                origin.z + velocity.z * age + acceleration.z * h)
    }

    /// The direction of travel on screen at `age` (radians from +x towards +y).
    func heading(_ age: Double) -> Double {
        let vx = velocity.x + acceleration.x * age, vy = velocity.y + acceleration.y * age
        return vx == 0 && vy == 0 ? 0 : atan2(vy, vx)
    }
}

/// What a sub-cell's particle takes from its parent at its birth.
private struct Inherited {
    var place: (x: Double, y: Double, z: Double)
    var heading: Double
    var scale: Double
    var color: (Double, Double, Double, Double)
}

private struct ParticleMaker {
    let style: EmitterStyle
    let limit: Int
    /// Particles by flattened cell.
    var lists: [[EmitterParticle]] = []
    var made = 0
    /// Particles looked at (alive or not): bounded, so that a frame's time is too.
    var work = 0
    var workLimit: Int { limit * 8 }

    init(style: EmitterStyle, limit: Int) {
        self.style = style
        self.limit = limit
        lists = Array(repeating: [], count: min(EmitterStyle.mostCells, style.flattenedCells.count))
    }

    /// When a cell stops giving birth on its own clock (its active duration; duration 0: never).
    static func activeEnd(_ timing: MediaTiming) -> Double {
        timing.duration > 0 || timing.repeatDuration > 0 ? timing.activeDuration : .infinity
    }

    /// The longest a particle of `cell` lives, on its clock.
    func longestLife(_ cell: EmitterCellStyle) -> Double {
        max(0, Double(cell.lifetime) + abs(Double(cell.lifetimeRange))) * Double(style.lifetime)
    }

    /// How long after its birth (on its parent's clock) a particle of `cell` may still have live descendants.
    func reach(_ cell: EmitterCellStyle, depth: Int) -> Double {
        var longest = longestLife(cell)
        guard depth + 1 < EmitterStyle.mostCellDepth else { return longest }
        for sub in cell.emitterCells where sub.isEnabled {
            let speed = abs(Double(sub.timing.speed))
            guard speed > 0, speed.isFinite else { continue }
            let start = sub.timing.beginTime.isFinite ? max(0, sub.timing.beginTime) : 0
            longest = max(longest, longestLife(cell) + start + reach(sub, depth: depth + 1) / speed)
        }
        return longest
    }

    mutating func top(_ cell: EmitterCellStyle, flat: Int, time: Double) {
        let seed = ParticleRandom.mix(UInt64(style.seed))
        emit(cell, flat: flat, depth: 0, parentKey: seed, parentClock: time, parentLife: .infinity,
             parentBirth: 0, inherited: nil)
    }

    /// The particles of `cell` (flattened index `flat`) whose parent clock reads `parentClock` now: the layer's
    /// local time for a top-level cell, or a particle's age (which stops giving birth at `parentLife`).
    mutating func emit(
        _ cell: EmitterCellStyle, flat: Int, depth: Int, parentKey: UInt64, parentClock: Double, parentLife: Double,
        parentBirth: Double, inherited: ((Double) -> Inherited)?
    ) {
        guard cell.isEnabled, depth < EmitterStyle.mostCellDepth, flat < lists.count else { return }
        let rate = Double(cell.birthRate) * Double(style.birthRate)
        let timing = cell.timing
        let speed = Double(timing.speed.isFinite ? timing.speed : 1)
        guard rate > 0, rate.isFinite, speed != 0 else { return }
        let clock = timing.localTime(parent: parentClock)
        // Births stop at the cell's end, and at the parent's death (converted to this cell's clock).
        var end = Self.activeEnd(timing)
        if parentLife.isFinite { end = min(end, timing.localTime(parent: parentLife)) }
        let newest = min(clock, end.nextDown)
        guard newest >= 0, clock.isFinite else { return }
        let reach = self.reach(cell, depth: depth)
        let lastK = (newest * rate).rounded(.down)
        let firstK = max(0, ((clock - reach) * rate).rounded(.up))
        guard lastK >= firstK, lastK < 1e15 else { return }
        let hasSubcells = depth + 1 < EmitterStyle.mostCellDepth && cell.emitterCells.contains { $0.isEnabled }
        let lifeScale = Double(style.lifetime)
        let layerVelocity = Double(style.velocity)
        let layerSpin = Double(style.spin)
        var k = firstK
        while k <= lastK {
            if made >= limit || work >= workLimit { return }
            work += 1
            let index = Int(k)
            k += 1
            let key = ParticleRandom.key(parent: parentKey, cell: flat, k: index)
            let born = Double(index) / rate
            let age = clock - born
            let life = max(0, Double(cell.lifetime) + Double(cell.lifetimeRange) * ParticleRandom.signed(key, Draw.lifetime.rawValue)) * lifeScale
            let alive = age < life
            guard alive || hasSubcells else { continue }
            // Birth: where, which way, how fast.
            let start: Inherited
            if let inherited {
                // The parent's age at this birth, on the parent's clock.
                let parentAge = timing.beginTime + (born - timing.timeOffset) / speed
                start = inherited(parentAge)
            } else {
                start = Inherited(place: origin(key), heading: 0, scale: Double(style.scale), color: (1, 1, 1, 1))
            }
            let longitude = Double(cell.emissionLongitude) + start.heading
                + Double(cell.emissionRange) * ParticleRandom.signed(key, Draw.longitude.rawValue)
            let latitude = Double(cell.emissionLatitude)
            let speedOut = (Double(cell.velocity) + Double(cell.velocityRange) * ParticleRandom.signed(key, Draw.velocity.rawValue))
                * layerVelocity
            let motion = Motion(
                origin: start.place,
                velocity: (speedOut * cos(latitude) * cos(longitude), speedOut * cos(latitude) * sin(longitude),
                           speedOut * sin(latitude)),
                acceleration: (Double(cell.xAcceleration), Double(cell.yAcceleration), Double(cell.zAcceleration)))
            let scaleAtBirth = Double(cell.scale) + Double(cell.scaleRange) * ParticleRandom.signed(key, Draw.scale.rawValue)
            let scaleSpeed = Double(cell.scaleSpeed)
            func component(_ base: Double, _ range: Float, _ speed: Float, _ draw: Draw, _ age: Double) -> Double {
                let x = base + Double(range) * ParticleRandom.signed(key, draw.rawValue) + Double(speed) * age
                return x.isNaN ? 0 : min(max(x, 0), 1)
            }
            let c = cell.color
            func color(at age: Double) -> (Double, Double, Double, Double) {
                (component(c.red, cell.redRange, cell.redSpeed, .red, age) * start.color.0,
                 component(c.green, cell.greenRange, cell.greenSpeed, .green, age) * start.color.1,
                 component(c.blue, cell.blueRange, cell.blueSpeed, .blue, age) * start.color.2,
                 component(c.alpha, cell.alphaRange, cell.alphaSpeed, .alpha, age) * start.color.3)
            }
            let birth = parentBirth + timing.beginTime + (born - timing.timeOffset) / speed
            if alive {
                let place = motion.position(age)
                let scale = (scaleAtBirth + scaleSpeed * age) * start.scale
                let spin = (Double(cell.spin) + Double(cell.spinRange) * ParticleRandom.signed(key, Draw.spin.rawValue))
                    * layerSpin
                let tint = color(at: age)
                if scale > 0, scale.isFinite, place.x.isFinite, place.y.isFinite, cell.contents != nil, tint.3 > 0 {
                    lists[flat].append(EmitterParticle(
                        position: CGPoint(x: place.x, y: place.y), z: CGFloat(place.z), angle: CGFloat(spin * age),
                        scale: CGFloat(scale), color: Color(red: tint.0, green: tint.1, blue: tint.2, alpha: tint.3),
                        cell: flat, index: index, age: age, birth: birth))
                    made += 1
                }
            }
            guard hasSubcells else { continue }
            var subFlat = flat + 1
            for sub in cell.emitterCells {
                guard subFlat < lists.count else { break }
                let count = EmitterStyle.cellCount(sub, depth: depth + 1, budget: lists.count - subFlat)
                emit(sub, flat: subFlat, depth: depth + 1, parentKey: key, parentClock: age, parentLife: life,
                     parentBirth: birth,
                     inherited: { parentAge in
                         let p = motion.position(parentAge)
                         let s = (scaleAtBirth + scaleSpeed * parentAge) * start.scale
                         return Inherited(place: p, heading: motion.heading(parentAge), scale: max(s, 0),
                                          color: color(at: parentAge))
                     })
                subFlat += count
            }
        }
    }

    /// Where a top-level particle with key `key` is born: on the emitter shape, by the emitter mode.
    func origin(_ key: UInt64) -> (x: Double, y: Double, z: Double) {
        let p = style.emitterPosition
        let (cx, cy, cz) = (Double(p.x), Double(p.y), Double(style.emitterZPosition))
        let w = max(Double(style.emitterSize.width), 0), h = max(Double(style.emitterSize.height), 0)
        let d = max(Double(style.emitterDepth), 0)
        let a = ParticleRandom.unit(key, Draw.shapeA.rawValue), b = ParticleRandom.unit(key, Draw.shapeB.rawValue)
        let c = ParticleRandom.unit(key, Draw.shapeC.rawValue), choice = ParticleRandom.unit(key, Draw.shapeChoice.rawValue)
        let mode = style.emitterMode
        func corner(_ n: Int, dims: Int) -> (Double, Double, Double) {
            (n & 1 == 0 ? -0.5 : 0.5, n & 2 == 0 ? -0.5 : 0.5, dims > 2 ? (n & 4 == 0 ? -0.5 : 0.5) : 0)
        }
        switch style.emitterShape {
        case .point:
            return (cx, cy, cz)
        case .line:
            if mode == .points { return (cx + (choice < 0.5 ? -w / 2 : w / 2), cy, cz) }
            return (cx + (a - 0.5) * w, cy, cz)
        case .rectangle:
            switch mode {
            case .points:
                let (x, y, _) = corner(Int(choice * 4), dims: 2)
                return (cx + x * w, cy + y * h, cz)
            case .outline:
                // A point along the perimeter, uniform by length.
                let perimeter = 2 * (w + h)
                guard perimeter > 0 else { return (cx, cy, cz) }
                var s = a * perimeter
                if s < w { return (cx - w / 2 + s, cy - h / 2, cz) }
                s -= w
                if s < h { return (cx + w / 2, cy - h / 2 + s, cz) }
                s -= h
                if s < w { return (cx + w / 2 - s, cy + h / 2, cz) }
                s -= w
                return (cx - w / 2, cy + h / 2 - s, cz)
            case .surface, .volume:
                return (cx + (a - 0.5) * w, cy + (b - 0.5) * h, cz)
            }
        case .cuboid:
            switch mode {
            case .points:
                let (x, y, z) = corner(Int(choice * 8), dims: 3)
                return (cx + x * w, cy + y * h, cz + z * d)
            case .outline:
                // One of the 12 edges, by length: 4 along each axis.
                let total = 4 * (w + h + d)
                guard total > 0 else { return (cx, cy, cz) }
                let s = choice * total
                let n = Int(a * 4) & 3
                let (sx, sy) = (n & 1 == 0 ? -0.5 : 0.5, n & 2 == 0 ? -0.5 : 0.5)
                if s < 4 * w { return (cx + (b - 0.5) * w, cy + sx * h, cz + sy * d) }
                if s < 4 * (w + h) { return (cx + sx * w, cy + (b - 0.5) * h, cz + sy * d) }
                return (cx + sx * w, cy + sy * h, cz + (b - 0.5) * d)
            case .surface:
                // One of the 6 faces, by area.
                let (xy, xz, yz) = (w * h, w * d, h * d)
                let total = 2 * (xy + xz + yz)
                guard total > 0 else { return (cx, cy, cz) }
                let s = choice * total
                let side = (s.truncatingRemainder(dividingBy: 2) < 1) ? -0.5 : 0.5
                if s < 2 * xy { return (cx + (a - 0.5) * w, cy + (b - 0.5) * h, cz + side * d) }
                if s < 2 * (xy + xz) { return (cx + (a - 0.5) * w, cy + side * h, cz + (b - 0.5) * d) }
                return (cx + side * w, cy + (a - 0.5) * h, cz + (b - 0.5) * d)
            case .volume:
                return (cx + (a - 0.5) * w, cy + (b - 0.5) * h, cz + (c - 0.5) * d)
            }
        case .circle:
            let r = w / 2
            switch mode {
            case .points: return (cx, cy, cz)
            case .outline: return (cx + r * cos(2 * .pi * a), cy + r * sin(2 * .pi * a), cz)
            case .surface, .volume:
                let radius = r * b.squareRoot()
                return (cx + radius * cos(2 * .pi * a), cy + radius * sin(2 * .pi * a), cz)
            }
        case .sphere:
            let r = w / 2
            // A uniform direction: z uniform in -1...1, angle uniform.
            let zz = 2 * b - 1, ring = (1 - zz * zz).squareRoot()
            let dir = (ring * cos(2 * .pi * a), ring * sin(2 * .pi * a), zz)
            switch mode {
            case .points: return (cx, cy, cz)
            case .outline, .surface: return (cx + r * dir.0, cy + r * dir.1, cz + r * dir.2)
            case .volume:
                let radius = r * Foundation.cbrt(c)
                return (cx + radius * dir.0, cy + radius * dir.1, cz + radius * dir.2)
            }
        }
    }
}

extension EmitterStyle {
    /// About how many particles the emitter keeps alive: each cell's birth rate times its longest lifetime (the
    /// layer's birthRate and lifetime included), a sub-cell's times its parent's count. What scene files are held to.
    public var estimatedParticles: Double {
        let rate = Double(max(birthRate, 0)), life = Double(max(lifetime, 0))
        func estimate(_ cells: [EmitterCellStyle], parents: Double, depth: Int) -> Double {
            guard depth < EmitterStyle.mostCellDepth else { return 0 }
            var total = 0.0
            for cell in cells where cell.isEnabled {
                let alive = parents * Double(max(cell.birthRate, 0)) * rate
                    * max(0, Double(cell.lifetime) + abs(Double(cell.lifetimeRange))) * life
                total += alive + estimate(cell.emitterCells, parents: alive, depth: depth + 1)
            }
            return total
        }
        return estimate(emitterCells, parents: 1, depth: 0)
    }
}
