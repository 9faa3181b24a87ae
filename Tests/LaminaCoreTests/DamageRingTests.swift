import LaminaCore
import Testing

/// `DamageRing`: the one buffer history of retained frames, the GLES presenter, DRM/fbdev buffers and Wayland's
/// shared-memory buffers (docs/architecture.md, "Damage").
struct DamageRingTests {
    let a = DamageRegion(PixelBox(x0: 0, y0: 0, x1: 2, y1: 2))
    let b = DamageRegion(PixelBox(x0: 5, y0: 5, x1: 6, y1: 6))
    let c = DamageRegion(PixelBox(x0: 8, y0: 0, x1: 9, y1: 1))
    let full = DamageRegion.full(width: 10, height: 10)

    private func union(_ regions: DamageRegion...) -> DamageRegion {
        var region = DamageRegion()
        for r in regions { region.formUnion(r) }
        return region
    }

    @Test func aBufferLacksTheDamageOfTheFramesAfterTheOneItHolds() {
        var ring = DamageRing()
        let first = ring.add(nil, width: 10, height: 10)
        let second = ring.add(a, width: 10, height: 10)
        let third = ring.add(b, width: 10, height: 10)
        let fourth = ring.add(c, width: 10, height: 10)
        #expect([first, second, third, fourth] == [1, 2, 3, 4])
        #expect(ring.newestFrame == 4)
        #expect(ring.damage(since: fourth).isEmpty)
        #expect(ring.damage(since: third) == c)
        #expect(ring.damage(since: second) == union(c, b))
        #expect(ring.damage(since: first) == union(c, b, a))
        // A new buffer, and a frame the ring never recorded, lack everything.
        #expect(ring.damage(since: nil) == full)
        #expect(ring.damage(since: 99) == full)
        #expect(ring.staleRegion(since: 99) == nil)
    }

    @Test func buffersByAgeAsEGLCountsThem() {
        var ring = DamageRing(limit: 3)
        ring.add(nil, width: 10, height: 10)
        ring.add(a, width: 10, height: 10)
        ring.add(b, width: 10, height: 10)
        // The newest frame (b) was just recorded: a buffer of age 1 holds the one before it.
        #expect(ring.damage(forAge: 1) == b)
        #expect(ring.damage(forAge: 2) == union(b, a))
        // Age 0 (undefined pixels) and ages as old as the ring: everything.
        #expect(ring.damage(forAge: 0) == full)
        #expect(ring.damage(forAge: 3) == full)
        // The ring keeps `limit` frames: after c, the frame before a is forgotten.
        ring.add(c, width: 10, height: 10)
        #expect(ring.damage(forAge: 2) == union(c, b))
        #expect(ring.damage(forAge: 3) == full)
    }

    @Test func unknownDamageAnotherSizeOrABrokenChainMeanTheWholeFrame() {
        var ring = DamageRing()
        let one = ring.add(a, width: 10, height: 10)
        ring.add(nil, width: 10, height: 10)
        ring.add(b, width: 10, height: 10)
        #expect(ring.damage(since: one) == full)
        // Another size forgets every frame before it.
        let small = ring.add(c, width: 4, height: 4)
        #expect(ring.damage(since: small).isEmpty)
        #expect(ring.damage(forAge: 1) == .full(width: 4, height: 4))
        // Damage is cut to the frame.
        ring.add(DamageRegion(PixelBox(x0: 2, y0: 2, x1: 9, y1: 9)), width: 4, height: 4)
        #expect(ring.damage(since: small) == DamageRegion(PixelBox(x0: 2, y0: 2, x1: 4, y1: 4)))
    }

    @Test func framesKeyedByPlanIdentityFollowTheirSinceChain() {
        var ring = DamageRing()
        ring.add(nil, width: 10, height: 10, frame: 100)
        ring.add(a, width: 10, height: 10, frame: 101, since: 100)
        // Measured against 100, not the frame recorded before it: a buffer holding 100 lacks only c; one holding
        // 101 cannot be brought up to date.
        ring.add(c, width: 10, height: 10, frame: 102, since: 100)
        #expect(ring.damage(since: 100) == c)
        #expect(ring.staleRegion(since: 101) == nil)
        ring.add(b, width: 10, height: 10, frame: 103, since: 102)
        #expect(ring.damage(since: 102) == b)
        #expect(ring.damage(since: 100) == union(b, c))
    }
}
