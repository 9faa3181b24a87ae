import Foundation

/// How a shadow is blurred: exactly (factor 1: the Gaussian of sigma at full resolution), or, for a large sigma, at
/// 1/factor of the resolution: the silhouette is box-averaged over factor x factor blocks, blurred with
/// `kernel` (sigma / factor, less what the averaging and the upsampling blur themselves) and drawn back
/// magnified with bilinear sampling. The cost of the blur then no longer grows with sigma: the reduced kernel's
/// radius stays at most 3 x `exactSigmaLimit` texels.
public struct ShadowBlur: Hashable, Sendable, CustomStringConvertible {
    /// The largest sigma, in pixels, blurred exactly at full resolution; above it the factor is the smallest power
    /// of two that brings sigma / factor to at most this.
    public static let exactSigmaLimit: Float = 16

    /// The requested standard deviation in full-resolution pixels (clamped as `GaussianKernel` clamps it).
    public let sigma: Float
    /// Full-resolution pixels per reduced texel along each axis: 1, or a power of two.
    public let factor: Int
    /// The kernel the renderers run, in reduced texels.
    public let kernel: GaussianKernel

    /// The blur for `sigma` full-resolution pixels: exact up to `exactSigmaLimit`, reduced beyond.
    public init(sigma: Float) {
        let sigma = sigma.isFinite ? min(max(sigma, 0), GaussianKernel.maximumSigma) : 0
        self.sigma = sigma
        guard sigma > Self.exactSigmaLimit else {
            factor = 1
            kernel = GaussianKernel(sigma: sigma)
            return
        }
        var factor = 2
        while Float(factor) * Self.exactSigmaLimit < sigma { factor *= 2 }
        self.factor = factor
        // Averaging over f pixels adds a variance of f^2 / 12, bilinear magnification by f one of f^2 / 6; the
        // reduced Gaussian supplies the rest, so the whole has the requested variance sigma^2.
        let f = Float(factor)
        kernel = GaussianKernel(sigma: (sigma * sigma - f * f / 4).squareRoot() / f)
    }

    /// A given kernel run at a given factor (tests compare the exact blur with the reduced one this way).
    public init(kernel: GaussianKernel, factor: Int = 1) {
        precondition(factor >= 1 && factor & (factor - 1) == 0, "the factor is a power of two")
        self.kernel = kernel
        self.factor = factor
        let f = Float(factor)
        sigma = factor == 1 ? kernel.sigma : (kernel.sigma * kernel.sigma * f * f + f * f / 4).squareRoot()
    }

    /// How far, in full-resolution pixels, the blurred shadow (as drawn, bilinear sampling included) reaches
    /// beyond the silhouette's pixels; equally, how far from a pixel the silhouette can still change it. Exact:
    /// the kernel's radius plus one (a fractional offset samples between pixels). Reduced: a silhouette pixel's
    /// block (up to f - 1 pixels away) reaches `radius` texels, and bilinear sampling reads a texel from up to 1.5
    /// texels away.
    public var spread: Int { factor == 1 ? kernel.radius + 1 : factor * (kernel.radius + 3) }

    public var description: String {
        factor == 1 ? "sigma \(sigma) px" : "sigma \(sigma) px at 1/\(factor) (sigma \(kernel.sigma) texels)"
    }
}

extension ShadowSource {
    /// The silhouette's alpha box-averaged over `factor` x `factor` blocks into an image of the reduced size
    /// (alpha only): each texel is round-half-up(sum of the block's alpha bytes / factor^2), in whole numbers, as
    /// the GLES renderer's downsampling pass computes it (blur.frag with DOWNSAMPLE).
    public func downsampled(_ silhouette: Image) throws -> Image {
        let f = blur.factor
        precondition(silhouette.width == width && silhouette.height == height, "silhouette of another size")
        let (reducedWidth, reducedHeight) = (blurWidth, blurHeight)
        let output = try Image(width: reducedWidth, height: reducedHeight)
        let area = f * f
        var sums = [Int](repeating: 0, count: reducedWidth)
        sums.withUnsafeMutableBufferPointer { sums in
            for by in 0..<reducedHeight {
                for x in 0..<reducedWidth { sums[x] = 0 }
                var any = false
                for y in by * f..<(by + 1) * f {
                    let row = silhouette.baseAddress.advanced(by: y * silhouette.bytesPerRow)
                        .assumingMemoryBound(to: UInt8.self)
                    for bx in 0..<reducedWidth {
                        var sum = 0
                        for x in bx * f..<(bx + 1) * f { sum += Int(row[x * 4 + 3]) }
                        sums[bx] += sum
                        any = any || sum != 0
                    }
                }
                guard any else { continue }
                let out = output.baseAddress.advanced(by: by * output.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                for bx in 0..<reducedWidth {
                    out[bx * 4 + 3] = UInt8((2 * sums[bx] + area) / (2 * area))
                }
            }
        }
        output.markModified()
        return output
    }
}
