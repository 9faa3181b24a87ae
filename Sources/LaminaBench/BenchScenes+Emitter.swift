import Foundation
import LaminaCore
import LaminaDrawing
import LaminaLayers

extension BenchScene {
    /// The live particles of `emitter-20k`.
    public static let emitterParticles = 20_000

    /// `emitter-20k`: one emitter layer over the whole output whose 8 cells (8 frames of sprites-10k's sheet, 64 x 64
    /// points, untinted) each give birth to 250 particles a second that live 10 s: 20,000 live particles, born all
    /// over the output (a rectangle of its size, surface mode), drifting at 5 +/- 3 points a second in every
    /// direction, not turned. Frames are live (at the media clock), so every frame makes and draws the particles
    /// of its time, at fractional positions (bilinear sampling).
    static func addEmitter(to root: Layer, size: CGSize) throws {
        let sheet = try spriteSheet()
        let emitter = EmitterLayer()
        emitter.frame = root.bounds
        emitter.emitterPosition = CGPoint(x: size.width / 2, y: size.height / 2)
        emitter.emitterSize = CGSize(width: max(size.width - 64, 0), height: max(size.height - 64, 0))
        emitter.emitterShape = .rectangle
        emitter.emitterMode = .surface
        emitter.seed = 0x1A31A
        let perCell = Float(emitterParticles / 8) / 10
        emitter.emitterCells = (0..<8).map { index in
            let cell = EmitterCell()
            let frame = index * 9
            cell.contents = sheet
            cell.contentsRect = CGRect(x: CGFloat(frame % 8) / 8, y: CGFloat(frame / 8) / 8, width: 0.125,
                                       height: 0.125)
            cell.birthRate = perCell
            cell.lifetime = 10
            cell.velocity = 5
            cell.velocityRange = 3
            cell.emissionRange = .pi
            return cell
        }
        root.addSublayer(emitter)
    }
}
