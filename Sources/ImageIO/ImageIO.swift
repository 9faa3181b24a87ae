// `import ImageIO` on Linux: CGImageSource and CGImageDestination over Lamina's PNG and JPEG codecs.
@_exported import CoreGraphics
import LaminaCore
import LaminaImageIO
