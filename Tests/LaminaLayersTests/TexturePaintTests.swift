import Foundation
import LaminaCore
import Testing

@testable import LaminaLayers

/// Quads of one plan that sample the same texture the same way share one paint (Planner+TexturePaints.swift), so
/// that 10,000 sprites cut from one sheet read a few dozen texture boxes rather than 10,000.
@Suite struct TexturePaintTests {
    func source(_ image: Image, x: CGFloat = 0, level: Float = 0) -> TextureSource {
        TextureSource(image: image, unitToTexel: Matrix3(m11: 8, m12: 0, m13: 0, m21: 0, m22: 8, m23: 0, m31: x,
                                                         m32: 0, m33: 1),
                      clamp: TexelRect(x0: Int(x), y0: 0, x1: Int(x) + 8, y1: 8), filter: .linear, mipLevel: level)
    }

    @Test func equalSourcesShareOnePaintAndOthersDoNot() throws {
        let sheet = try Image(width: 32, height: 8), other = try Image(width: 32, height: 8)
        let table = TexturePaints()
        let first = table.paint(source(sheet, x: 8))
        #expect(first == .texture(source(sheet, x: 8)))
        #expect(table.paint(source(sheet, x: 8)) == first)
        #expect(table.shared == 1)
        // A different cell, level of detail or image, a tint, or a map whose zero has the other sign: a paint of
        // their own.
        var negativeZero = source(sheet, x: 8)
        negativeZero.unitToTexel.m12 = -0.0
        var tinted = source(sheet, x: 8)
        tinted.tint = Color(red: 1, green: 0, blue: 0, alpha: 1)
        for different in [source(sheet, x: 16), source(sheet, x: 8, level: 1), source(other, x: 8), negativeZero,
                          tinted] {
            #expect(table.paint(different) == .texture(different))
        }
        #expect(table.shared == 1)
        // Each of them is shared from then on (but the tinted one, which is never shared).
        for again in [source(sheet, x: 16), source(sheet, x: 8, level: 1), source(other, x: 8), negativeZero] {
            #expect(table.paint(again) == .texture(again))
        }
        #expect(table.shared == 5)
    }

    @Test func aFullTableStillGivesEveryQuadItsOwnSource() throws {
        // More sources than slots: each still gets a paint of its own value, and repeats of recent ones are shared.
        let sheet = try Image(width: 4096, height: 8)
        let table = TexturePaints(slots: 16)
        for x in stride(from: 0, to: 4000, by: 8) {
            #expect(table.paint(source(sheet, x: CGFloat(x))) == .texture(source(sheet, x: CGFloat(x))))
        }
        #expect(table.paint(source(sheet, x: 3992)) == .texture(source(sheet, x: 3992)))
        #expect(table.shared >= 1)
    }

    /// 120 sprites from 4 cells of one sheet and 10 of images of their own, 8 x 8 points each.
    func sprites() throws -> (root: Layer, sprites: [Layer]) {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 120)
        let sheet = try Image(width: 16, height: 16)
        for y in 0..<16 {
            for x in 0..<16 { sheet.setWord(0xFF00_0000 | UInt32(x * 16) << 8 | UInt32(y * 16), x: x, y: y) }
        }
        var sprites: [Layer] = []
        for index in 0..<130 {
            let sprite = Layer(frame: CGRect(x: CGFloat(index % 20) * 10, y: CGFloat(index / 20) * 10, width: 8,
                                             height: 8))
            if index < 120 {
                sprite.contents = sheet
                sprite.contentsRect = CGRect(x: CGFloat(index % 2) / 2, y: CGFloat(index / 2 % 2) / 2, width: 0.5,
                                             height: 0.5)
            } else {
                sprite.contents = try Image(width: 8, height: 8)
            }
            sprites.append(sprite)
        }
        root.sublayers = sprites
        return (root, sprites)
    }

    @Test func spritesOfOneSheetSharePaintsInEveryPlan() throws {
        let (root, sprites) = try sprites()
        let cache = PlanCache()
        let planner = Planner()
        let plan = try planner.plan(root.presentationForFrame(at: nil), cache: cache)
        #expect(plan.quads.count == 130)
        #expect(cache.statistics.texturePaintsShared == 116)
        // The paints are the sprites' own sources: the plan is the one a planner without a table makes.
        #expect(plan.quads == (try planner.plan(root.presentationForFrame(at: nil), cache: nil)).quads)
        // Planning every sprite again (a new cell each) shares as much; a plan that reuses the sprites plans none.
        Transaction.begin()
        Transaction.setDisableActions(true)
        for (index, sprite) in sprites.prefix(120).enumerated() {
            sprite.contentsRect = CGRect(x: CGFloat((index + 1) % 2) / 2, y: 0, width: 0.5, height: 0.5)
        }
        Transaction.commit()
        _ = try planner.plan(root.presentationForFrame(at: nil), cache: cache)
        #expect(cache.statistics.layersPlanned >= 120)
        #expect(cache.statistics.texturePaintsShared == 118)
        _ = try planner.plan(root.presentationForFrame(at: nil), cache: cache)
        #expect(cache.statistics.texturePaintsShared == 0)
    }
}
