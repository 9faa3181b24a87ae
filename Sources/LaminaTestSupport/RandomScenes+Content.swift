import Foundation
import Lamina

/// Images, the sprite sheet, `contents` and its keys, drawing steps and path steps.
extension RandomSceneBuilder {
    /// One to three small PNGs (1x1 up to 24x24, some translucent) under `images`, some with a `scale`.
    func makeImages(into top: inout [(String, SceneJSON)]) {
        var entries: [(String, SceneJSON)] = []
        for index in 0..<(1 + random.below(3)) {
            let name = "image\(index)", file = "image\(index).png"
            images[file] = pattern(width: 1 + random.below(24), height: 1 + random.below(24))
            imageNames.append(name)
            let scaled = random.chance(0.25)
            entries.append((name, scaled
                ? .object([("path", .string(file)), ("scale", .number(number(1, 3, .positive, whole: true)))])
                : .string(file)))
        }
        top.append(("images", .object(entries)))
    }

    /// Quadrants, stripes or a checkerboard of random colours, so that sampling and clipping errors show.
    private func pattern(width: Int, height: Int) -> Image {
        let image = try! Image(width: width, height: height)
        let colours = (0..<4).map { _ in
            Color(red: random.unit(), green: random.unit(), blue: random.unit(),
                  alpha: random.chance(0.7) ? 1 : random.unit())
        }
        let kind = random.below(3), cell = 1 + random.below(4)
        for y in 0..<height {
            for x in 0..<width {
                let index: Int
                switch kind {
                case 0: index = (x < width / 2 ? 0 : 1) + (y < height / 2 ? 0 : 2)
                case 1: index = (x / cell) % 4
                default: index = ((x / cell + y / cell) % 2) * 3
                }
                image.setWord(Image.premultipliedWord(colours[index]), x: x, y: y)
            }
        }
        return image
    }

    /// Half the time, a 32x32 sheet with two to four frames (some rotated) in a format-2 property list.
    func makeSpriteSheet(into top: inout [(String, SceneJSON)]) {
        guard random.chance(0.5) else { return }
        images["sheet.png"] = pattern(width: 32, height: 32)
        var frames = ""
        for index in 0..<(2 + random.below(3)) {
            let w = 2 + random.below(14), h = 2 + random.below(14), x = random.below(16), y = random.below(16)
            let rotated = random.chance(0.3)
            frames += """
                <key>f\(index).png</key><dict>
                <key>frame</key><string>{{\(x),\(y)},{\(w),\(h)}}</string>
                <key>offset</key><string>{0,0}</string>
                <key>rotated</key><\(rotated)/>
                <key>sourceColorRect</key><string>{{0,0},{\(w),\(h)}}</string>
                <key>sourceSize</key><string>{\(w),\(h)}</string>
                </dict>

                """
            frameNames.append("sheet/f\(index).png")
        }
        texts["sheet.plist"] = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple Computer//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>
            <key>frames</key><dict>
            \(frames)</dict>
            <key>metadata</key><dict>
            <key>format</key><integer>2</integer>
            <key>size</key><string>{32,32}</string>
            <key>textureFileName</key><string>sheet.png</string>
            </dict>
            </dict></plist>

            """
        top.append(("spriteSheets", .object([("sheet", .string("sheet.plist"))])))
    }

    /// `contents` (an image or a sprite frame) and the keys that place and sample it.
    func contents(into keys: inout [(String, SceneJSON)], size: CGSize) {
        let useFrame = !frameNames.isEmpty && random.chance(0.3)
        keys.append(("contents", .string(useFrame ? random.pick(frameNames) : random.pick(imageNames))))
        if !useFrame && random.chance(0.3) {
            keys.append(("contentsRect", .array([
                .number(number(-0.25, 0.75)), .number(number(-0.25, 0.75)),
                .number(number(0.05, 1.2, .nonNegative)), .number(number(0.05, 1.2, .nonNegative)),
            ])))
        }
        if random.chance(0.2) {
            let x = number(0, 0.6, .unit), y = number(0, 0.6, .unit)
            keys.append(("contentsCenter", .array([
                .number(x), .number(y), .number(number(0, 1 - x, .unit)), .number(number(0, 1 - y, .unit)),
            ])))
        }
        if random.chance(0.4) {
            keys.append(("contentsGravity", .string(random.pick([
                "center", "top", "bottom", "left", "right", "topLeft", "topRight", "bottomLeft", "bottomRight",
                "resize", "resizeAspect", "resizeAspectFill",
            ]))))
        }
        if random.chance(0.2) { keys.append(("contentsScale", .number(random.pick([0.5, 1, 2, 3, number(0.25, 4, .positive)])))) }
        if random.chance(0.25) { keys.append(("minificationFilter", .string(random.pick(["linear", "nearest", "trilinear"])))) }
        if random.chance(0.25) { keys.append(("magnificationFilter", .string(random.pick(["linear", "nearest"])))) }
        if random.chance(0.1) { keys.append(("minificationFilterBias", .number(number(-2, 2)))) }
    }

    /// One to ten drawing steps: state, paths, painting, an image and (rarely) text.
    func drawing(in size: CGSize) -> SceneJSON {
        var steps: [SceneJSON] = []
        var saved = 0
        for _ in 0..<(1 + random.below(10)) {
            switch random.below(16) {
            case 0:
                steps.append(.object([("save", .bool(true))])); saved += 1
            case 1 where saved > 0:
                steps.append(.object([("restore", .bool(true))])); saved -= 1
            case 2: steps.append(.object([(random.pick(["translate", "scale"]), numbers(2, 0.5, 4))]))
            case 3: steps.append(.object([("rotate", .number(number(-90, 90)))]))
            case 4: steps.append(.object([("lineWidth", .number(number(0, 6, .nonNegative)))]))
            case 5:
                steps.append(.object([random.chance(0.5)
                    ? ("lineCap", .string(random.pick(["butt", "round", "square"])))
                    : ("lineJoin", .string(random.pick(["miter", "round", "bevel"])))]))
            case 6: steps.append(.object([("dash", random.chance(0.3) ? .array([]) : numbers(2, 1, 6, .positive))]))
            case 7, 8: steps.append(.object([(random.pick(["fillColor", "strokeColor"]), color())]))
            case 9, 10: steps.append(pathStep(in: size))
            case 11: steps.append(.object([(random.pick(["fill", "clip"]), .string(random.pick(["nonzero", "evenodd"])))]))
            case 12: steps.append(.object([("stroke", .bool(true))]))
            case 13:
                let shape = random.pick(["fillRect", "strokeRect", "fillEllipse", "strokeEllipse"])
                steps.append(.object([(shape, random.chance(0.2) ? .string("bounds") : rect(in: size))]))
            case 14: steps.append(.object([("image", .string(random.pick(imageNames))), ("rect", rect(in: size))]))
            default:
                if random.chance(0.3) {
                    steps.append(.object([
                        ("text", .string(random.pick(["Ag", "Lamina", "é✓", "0"]))), ("at", numbers(2, 0, 40)),
                        ("size", .number(number(4, 24, .positive))), ("font", .string(random.pick(["sans", "serif", "monospace"]))),
                    ]))
                } else {
                    steps.append(.object([("fillRect", rect(in: size))]))
                }
            }
        }
        return .array(steps)
    }

    /// A path step, in the syntax both `draw` and `shadowPath` take.
    func pathStep(in size: CGSize) -> SceneJSON {
        let w = Double(size.width) + 1, h = Double(size.height) + 1
        func coordinates(_ count: Int) -> [SceneJSON] {
            (0..<count).flatMap { _ in [SceneJSON.number(number(-4, w)), .number(number(-4, h))] }
        }
        func point() -> SceneJSON { .array(coordinates(1)) }
        switch random.below(9) {
        case 0: return .object([("moveTo", point())])
        case 1: return .object([("lineTo", point())])
        case 2:
            return .object([("curveTo", .array(coordinates(3)))])
        case 3: return .object([("quadTo", .array(coordinates(2)))])
        case 4:
            return .object([
                ("arc", .array([.number(number(0, w)), .number(number(0, h)), .number(number(0, 30, .nonNegative)),
                                .number(number(-360, 360)), .number(number(-360, 360))])),
                ("clockwise", .bool(random.chance(0.5))),
            ])
        case 5: return .object([("closePath", .bool(true))])
        case 6: return .object([("rect", random.chance(0.3) ? .string("bounds") : rect(in: size))])
        case 7: return .object([("ellipse", random.chance(0.3) ? .string("bounds") : rect(in: size))])
        default:
            if case .array(var r) = rect(in: size) {
                r.append(.number(number(0, 12, .nonNegative)))
                return .object([("roundedRect", .array(r))])
            }
            return .object([("closePath", .bool(true))])
        }
    }
}
