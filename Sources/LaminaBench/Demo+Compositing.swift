import Foundation
import LaminaCore
import LaminaDrawing
import LaminaLayers

extension Demo {
    /// Row 5: the layer classes of issue 25. Three discs blended with `multiplyBlendMode` over a gradient (where
    /// two overlap their colours multiply, as printed inks do), a cube of six faces in a transform layer turned on
    /// two axes under perspective, and an additive emitter of sparks seen three seconds in.
    static func addCompositingRow(to root: Layer, top: CGFloat) throws {
        root.addSublayer(try label("blend modes, a transform layer and an emitter", at: CGPoint(x: 24, y: top),
                                   size: 15, bold: true))
        let y = top + 30

        // Blend modes: cyan, magenta and yellow discs multiplied over a light gradient.
        let backdrop = GradientLayer()
        backdrop.frame = CGRect(x: 24, y: y, width: 316, height: 136)
        backdrop.cornerRadius = 10
        backdrop.colors = [Color(hex: "#FFFFFF")!, Color(hex: "#E0E7FF")!]
        backdrop.startPoint = CGPoint(x: 0, y: 0.5)
        backdrop.endPoint = CGPoint(x: 1, y: 0.5)
        let inks = [("#00B7EB", CGPoint(x: 118, y: 56)), ("#FF3EA5", CGPoint(x: 158, y: 56)),
                    ("#FFE100", CGPoint(x: 138, y: 90))]
        for (hex, centre) in inks {
            let disc = Layer(frame: CGRect(x: centre.x - 40, y: centre.y - 40, width: 80, height: 80))
            disc.backgroundColor = Color(hex: hex)!
            disc.cornerRadius = 40
            disc.compositingFilter = "multiplyBlendMode"
            backdrop.addSublayer(disc)
        }
        root.addSublayer(backdrop)
        root.addSublayer(try label("compositingFilter: multiplyBlendMode",
                                   at: CGPoint(x: backdrop.frame.minX, y: backdrop.frame.maxY + 6), size: 12))

        // A cube: six faces in a transform layer, turned on two axes, seen through the stage's perspective.
        let stage = Layer(frame: CGRect(x: 372, y: y, width: 136, height: 136))
        stage.sublayerTransform = Transform3D(perspectiveDistance: 400)
        let cube = TransformLayer()
        cube.frame = CGRect(x: 28, y: 28, width: 80, height: 80)
        cube.transform = Transform3D(rotationAngle: -0.5, x: 1, y: 0, z: 0)
            .concatenating(Transform3D(rotationAngle: 0.7, x: 0, y: 1, z: 0))
        let faces: [(String, CGFloat, (CGFloat, CGFloat, CGFloat), (CGFloat, CGFloat, CGFloat))] = [
            ("#EF4444", 0, (0, 0, 1), (0, 0, 40)), ("#3B82F6", .pi, (0, 1, 0), (0, 0, -40)),
            ("#10B981", .pi / 2, (0, 1, 0), (40, 0, 0)), ("#F59E0B", -.pi / 2, (0, 1, 0), (-40, 0, 0)),
            ("#8B5CF6", .pi / 2, (1, 0, 0), (0, -40, 0)), ("#EC4899", -.pi / 2, (1, 0, 0), (0, 40, 0)),
        ]
        for (hex, angle, axis, move) in faces {
            let face = Layer(frame: CGRect(x: 0, y: 0, width: 80, height: 80))
            face.backgroundColor = Color(hex: hex)!
            face.borderColor = Color(hex: "#1F2937")!.withAlphaComponent(0.5)
            face.borderWidth = 2
            face.isDoubleSided = false
            face.transform = Transform3D(rotationAngle: angle, x: axis.0, y: axis.1, z: axis.2)
                .concatenating(Transform3D(translationX: move.0, y: move.1, z: move.2))
            cube.addSublayer(face)
        }
        stage.addSublayer(cube)
        root.addSublayer(stage)
        root.addSublayer(try label("transform layer: a cube", at: CGPoint(x: stage.frame.minX, y: stage.frame.maxY + 6),
                                   size: 12))

        // An emitter: a fountain of additive sparks on a dark card, three seconds after it started.
        let night = Layer(frame: CGRect(x: 540, y: y, width: 396, height: 136))
        night.backgroundColor = Color(hex: "#111827")!
        night.cornerRadius = 10
        night.masksToBounds = true
        let sparks = EmitterLayer()
        sparks.frame = night.bounds
        sparks.emitterPosition = CGPoint(x: 198, y: 128)
        sparks.emitterShape = .line
        sparks.emitterSize = CGSize(width: 60, height: 0)
        sparks.renderMode = .additive
        sparks.seed = 7
        sparks.timeOffset = 3
        let spark = EmitterCell()
        spark.contents = try dot(diameter: 12)
        spark.contentsScale = 2
        spark.birthRate = 160
        spark.lifetime = 2.2
        spark.lifetimeRange = 0.4
        spark.velocity = 120
        spark.velocityRange = 30
        spark.emissionLongitude = -.pi / 2
        spark.emissionRange = .pi / 5
        spark.yAcceleration = 70
        spark.scaleSpeed = -0.2
        spark.color = Color(red: 1, green: 0.55, blue: 0.15, alpha: 0.8)
        spark.greenRange = 0.3
        spark.alphaSpeed = -0.35
        sparks.emitterCells = [spark]
        night.addSublayer(sparks)
        root.addSublayer(night)
        root.addSublayer(try label("emitter: additive sparks, seed 7",
                                   at: CGPoint(x: night.frame.minX, y: night.frame.maxY + 6), size: 12))
    }

    /// A soft white dot of `diameter` pixels on transparency: the sparks' contents.
    static func dot(diameter: Int) throws -> Image {
        let image = try Image(width: diameter, height: diameter)
        let r = Double(diameter) / 2
        for y in 0..<diameter {
            for x in 0..<diameter {
                let d = (Double(x) + 0.5 - r, Double(y) + 0.5 - r)
                let a = max(0, 1 - (d.0 * d.0 + d.1 * d.1).squareRoot() / r)
                let v = UInt8((a * 255).rounded())
                image.setRGBA(RGBA8(r: 255, g: 255, b: 255, a: v), x: x, y: y)
            }
        }
        return image
    }
}
