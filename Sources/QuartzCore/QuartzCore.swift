// `import QuartzCore` on Linux: Core Animation's names for Lamina's own layers, animations and transactions
// (one model, docs/porting.md). As on Apple platforms, it brings CoreGraphics and Foundation with it.
@_exported import CoreGraphics
@_exported import Foundation
import LaminaCore
import LaminaDrawing
import LaminaLayers
