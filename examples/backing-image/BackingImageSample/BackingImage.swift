// The backing-image chapter of "iOS Core Animation: Advanced Techniques" (contents, contentsGravity, contentsScale,
// masksToBounds, contentsRect sprite sheets, contentsCenter nine-slice images, custom drawing through the delegate),
// written as it would be on iOS with only Apple's module names. On iOS the root layer would be a view's layer; here
// it is drawn into a bitmap context with render(in:) and written as a PNG through ImageIO (docs/porting.md).
import CoreGraphics
import Foundation
import ImageIO
import QuartzCore

/// The demo's size in points.
public let backingImageDemoSize = CGSize(width: 640, height: 400)

/// A bitmap context of `width` x `height` pixels, RGBA with premultiplied alpha, as iOS code makes one.
func makeBitmapContext(width: Int, height: Int) -> CGContext? {
    CGContext(data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0,
              space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
}

/// A snowman on a sky-blue card: the chapter's example image, drawn with Core Graphics.
func makeSnowman() -> CGImage? {
    guard let ctx = makeBitmapContext(width: 200, height: 100) else { return nil }
    ctx.setFillColor(CGColor(red: 0.55, green: 0.78, blue: 0.95, alpha: 1))
    ctx.fill(CGRect(x: 0, y: 0, width: 200, height: 100))
    ctx.setFillColor(CGColor(red: 1, green: 1, blue: 1, alpha: 1))
    ctx.fillEllipse(in: CGRect(x: 70, y: 5, width: 60, height: 60))
    ctx.fillEllipse(in: CGRect(x: 80, y: 55, width: 40, height: 40))
    ctx.setFillColor(CGColor(red: 0.95, green: 0.45, blue: 0.1, alpha: 1))
    ctx.fill(CGRect(x: 98, y: 72, width: 14, height: 4))
    return ctx.makeImage()
}

/// A 2 x 2 sprite sheet of 64-pixel cells: red, green, blue and yellow shapes.
func makeSpriteSheet() -> CGImage? {
    guard let ctx = makeBitmapContext(width: 128, height: 128) else { return nil }
    let colours = [CGColor(red: 0.9, green: 0.2, blue: 0.2, alpha: 1), CGColor(red: 0.2, green: 0.7, blue: 0.3, alpha: 1),
                   CGColor(red: 0.2, green: 0.4, blue: 0.9, alpha: 1), CGColor(red: 0.95, green: 0.8, blue: 0.1, alpha: 1)]
    for (index, colour) in colours.enumerated() {
        // Bitmap contexts are y-up: cell 0 (top-left of the image) is at y 64...128.
        let cell = CGRect(x: CGFloat(index % 2) * 64, y: 64 - CGFloat(index / 2) * 64, width: 64, height: 64)
        ctx.setFillColor(colour)
        if index % 2 == 0 {
            ctx.fillEllipse(in: cell.insetBy(dx: 6, dy: 6))
        } else {
            ctx.fill(cell.insetBy(dx: 8, dy: 8))
        }
    }
    return ctx.makeImage()
}

/// A 30 x 30 button image with 10-pixel rounded, dark borders and a light centre, for nine-slice stretching.
func makeButtonImage() -> CGImage? {
    guard let ctx = makeBitmapContext(width: 30, height: 30) else { return nil }
    let path = CGPath(roundedRect: CGRect(x: 0, y: 0, width: 30, height: 30), cornerWidth: 10, cornerHeight: 10,
                      transform: nil)
    ctx.addPath(path)
    ctx.setFillColor(CGColor(red: 0.15, green: 0.2, blue: 0.35, alpha: 1))
    ctx.fillPath()
    ctx.setFillColor(CGColor(red: 0.85, green: 0.9, blue: 1, alpha: 1))
    ctx.fill(CGRect(x: 10, y: 10, width: 10, height: 10))
    return ctx.makeImage()
}

/// Draws a clock face: the chapter's custom-drawing example, through the layer's delegate.
public final class ClockFaceDelegate: NSObject, CALayerDelegate {
    public func draw(_ layer: CALayer, in ctx: CGContext) {
        let bounds = layer.bounds
        ctx.setFillColor(CGColor(red: 1, green: 1, blue: 1, alpha: 1))
        ctx.fillEllipse(in: bounds.insetBy(dx: 4, dy: 4))
        ctx.setStrokeColor(CGColor(red: 0.2, green: 0.2, blue: 0.2, alpha: 1))
        ctx.setLineWidth(6)
        ctx.strokeEllipse(in: bounds.insetBy(dx: 4, dy: 4))
        ctx.setLineCap(.round)
        ctx.move(to: CGPoint(x: bounds.midX, y: bounds.midY))
        ctx.addLine(to: CGPoint(x: bounds.midX, y: bounds.minY + 22))
        ctx.move(to: CGPoint(x: bounds.midX, y: bounds.midY))
        ctx.addLine(to: CGPoint(x: bounds.maxX - 30, y: bounds.midY))
        ctx.strokePath()
    }
}

/// The demo's layer tree: six panels, one per topic of the chapter. `delegate` must be kept alive by the caller
/// (layers hold their delegates weakly, as on iOS).
public func makeBackingImageDemo(delegate: CALayerDelegate) -> CALayer {
    let root = CALayer()
    root.bounds = CGRect(origin: .zero, size: backingImageDemoSize)
    root.position = CGPoint(x: backingImageDemoSize.width / 2, y: backingImageDemoSize.height / 2)
    root.backgroundColor = CGColor(red: 0.96, green: 0.96, blue: 0.94, alpha: 1)
    let snowman = makeSnowman()

    // 1. contents with contentsGravity: the 2:1 image fitted into a square, letterboxed.
    let fitted = CALayer()
    fitted.frame = CGRect(x: 20, y: 20, width: 180, height: 160)
    fitted.backgroundColor = CGColor(red: 0.8, green: 0.8, blue: 0.8, alpha: 1)
    fitted.contents = snowman
    fitted.contentsGravity = .resizeAspect
    root.addSublayer(fitted)

    // 2. contentsScale: the same image shown at 2 pixels per point, centred at its point size (100 x 50).
    let scaled = CALayer()
    scaled.frame = CGRect(x: 230, y: 20, width: 180, height: 160)
    scaled.backgroundColor = CGColor(red: 0.8, green: 0.8, blue: 0.8, alpha: 1)
    scaled.contents = snowman
    scaled.contentsGravity = .center
    scaled.contentsScale = 2
    root.addSublayer(scaled)

    // 3. masksToBounds with cornerRadius: the image clipped to a rounded square.
    let rounded = CALayer()
    rounded.frame = CGRect(x: 440, y: 20, width: 160, height: 160)
    rounded.contents = snowman
    rounded.contentsGravity = .resizeAspectFill
    rounded.cornerRadius = 40
    rounded.masksToBounds = true
    root.addSublayer(rounded)

    // 4. A sprite sheet: four layers sharing one image, each showing one cell through contentsRect.
    let sheet = makeSpriteSheet()
    for index in 0..<4 {
        let sprite = CALayer()
        sprite.frame = CGRect(x: 20 + CGFloat(index % 2) * 90, y: 210 + CGFloat(index / 2) * 90, width: 80, height: 80)
        sprite.contents = sheet
        sprite.contentsRect = CGRect(x: CGFloat(index % 2) * 0.5, y: CGFloat(index / 2) * 0.5, width: 0.5, height: 0.5)
        root.addSublayer(sprite)
    }

    // 5. contentsCenter: a 30-pixel button stretched to 160 x 60 with its 10-pixel borders kept.
    let button = CALayer()
    button.frame = CGRect(x: 230, y: 240, width: 160, height: 60)
    button.contents = makeButtonImage()
    button.contentsCenter = CGRect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
    root.addSublayer(button)

    // 6. Custom drawing: the delegate draws a clock face into the layer's backing image.
    let clock = CALayer()
    clock.frame = CGRect(x: 450, y: 210, width: 140, height: 140)
    clock.contentsScale = 2
    clock.delegate = delegate
    clock.setNeedsDisplay()
    root.addSublayer(clock)
    return root
}

/// Draws the demo into a new bitmap context with `render(in:)`, flipped so that the picture is upright in memory (a
/// bitmap context's user space is y-up, a layer's y-down, as on iOS), at `scale` pixels per point.
public func renderBackingImageDemo(scale: CGFloat = 1) -> CGImage? {
    let delegate = ClockFaceDelegate()
    let root = makeBackingImageDemo(delegate: delegate)
    let width = Int(backingImageDemoSize.width * scale), height = Int(backingImageDemoSize.height * scale)
    guard let ctx = makeBitmapContext(width: width, height: height) else { return nil }
    ctx.translateBy(x: 0, y: CGFloat(height))
    ctx.scaleBy(x: scale, y: -scale)
    root.render(in: ctx)
    return withExtendedLifetime(delegate) { ctx.makeImage() }
}

/// Writes the demo as a PNG file through ImageIO; false when it cannot.
public func writeBackingImageDemo(to url: URL, scale: CGFloat = 1) -> Bool {
    guard let image = renderBackingImageDemo(scale: scale),
          let destination = CGImageDestinationCreateWithURL(url as CFURL, "public.png" as CFString, 1, nil)
    else { return false }
    CGImageDestinationAddImage(destination, image, nil)
    return CGImageDestinationFinalize(destination)
}
