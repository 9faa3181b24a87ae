import CEGL
import Foundation
import LaminaCore

/// A linked GLSL ES program of Shaders/, with its uniform locations. Compile and link failures throw with
/// the driver's GLSL log.
final class GLESProgram {
    /// The kinds of program the renderer draws with; the cache is keyed by this.
    enum Kind: Hashable, CaseIterable {
        /// Solid colours.
        case solid
        /// Textures sampled at the nearest texel.
        case nearest
        /// Textures copied 1:1 at whole pixels (`GLESBatchEncoder.Batch.copies`): the nearest program reading the
        /// texel at the pixel moved by the map's translation, the texel the map gives at the pixel centre.
        case copy
        /// Textures sampled bilinearly.
        case bilinear
        /// Textures sampled bilinearly at two mip levels of one texture, mixed (trilinear minification).
        case trilinear
        /// One pass of a shadow's Gaussian blur.
        case blur
        /// The box average that reduces a shadow's silhouette before a large blur.
        case downsample
        /// The solid, nearest, bilinear and trilinear programs for quads drawn by coverage: each pixel is kept only
        /// inside its row's run of the span table (GLESPass+Spans.swift).
        case solidCoverage, nearestCoverage, copyCoverage, bilinearCoverage, trilinearCoverage
        /// The variants that also compute the coverage of quads seen through a shape (Shaders/shape.glsl), with
        /// only the parts of the formula that the batch's shapes need compiled in (llvmpipe runs both sides of
        /// every branch on every pixel). Compiled on first use.
        case shape(Sampling, ShapeFeatures)

        /// How a quad program paints.
        enum Sampling: Hashable, CaseIterable {
            case solid, nearest, copy, bilinear, trilinear
        }

        /// The programs without shapes. Every program, these too, is compiled when a frame first needs it
        /// (`GLESRenderer.program(_:)`).
        static let precompiled: [Kind] = [
            .solid, .nearest, .copy, .bilinear, .trilinear, .blur, .downsample, .solidCoverage, .nearestCoverage,
            .copyCoverage, .bilinearCoverage, .trilinearCoverage,
        ]

        /// The programs without shapes and, for each sampling, the shape programs with no feature, each feature alone
        /// and all of them (the other combinations compile alike: each feature is a separate #ifdef).
        static var allCases: [Kind] {
            let features: [ShapeFeatures] = [[], .continuous, .hole, .projective, .spans, .jacobian, ShapeFeatures.all]
            return precompiled + Sampling.allCases.flatMap { sampling in features.map { Kind.shape(sampling, $0) } }
        }

        var sampling: Sampling? {
            switch self {
            case .solid, .solidCoverage: return .solid
            case .nearest, .nearestCoverage: return .nearest
            case .copy, .copyCoverage: return .copy
            case .bilinear, .bilinearCoverage: return .bilinear
            case .trilinear, .trilinearCoverage: return .trilinear
            case .shape(let sampling, _): return sampling
            case .blur, .downsample: return nil
            }
        }

        /// The variant of a quad program that reads the span table.
        var coverage: Kind {
            switch self {
            case .solid: return .solidCoverage
            case .nearest: return .nearestCoverage
            case .copy: return .copyCoverage
            case .bilinear: return .bilinearCoverage
            case .trilinear: return .trilinearCoverage
            default: return self
            }
        }

        var shaders: (vertex: String, fragment: String) {
            switch self {
            case .blur, .downsample: return ("quad.vert", "blur.frag")
            default: return ("quad.vert", sampling == .solid ? "solid.frag" : "texture.frag")
            }
        }

        /// Preprocessor definitions for the fragment shader.
        var defines: [String] {
            switch self {
            case .bilinear: return ["BILINEAR"]
            case .trilinear: return ["TRILINEAR"]
            case .downsample: return ["DOWNSAMPLE"]
            case .solid, .blur: return []
            case .nearest: return ["NEAREST"]
            case .copy: return ["NEAREST", "COPY"]
            case .solidCoverage: return ["SPANS"]
            case .nearestCoverage: return ["NEAREST", "SPANS"]
            case .copyCoverage: return ["NEAREST", "COPY", "SPANS"]
            case .bilinearCoverage: return ["BILINEAR", "SPANS"]
            case .trilinearCoverage: return ["TRILINEAR", "SPANS"]
            case .shape(let sampling, let features):
                let filter: [String] = switch sampling {
                case .solid: []
                case .nearest: ["NEAREST"]
                case .copy: ["NEAREST", "COPY"]
                case .bilinear: ["BILINEAR"]
                case .trilinear: ["TRILINEAR"]
                }
                return filter + ["SHAPES"] + features.defines
            }
        }
    }

    /// The parts of the shape formula (Shaders/shape.glsl) a shape program compiles in: a batch's program has the
    /// union of its quads' (`GLESBatchEncoder.Batch.shape`).
    struct ShapeFeatures: OptionSet, Hashable {
        let rawValue: UInt8
        /// Continuous corners (`cornerCurve` continuous): CONTINUOUS.
        static let continuous = ShapeFeatures(rawValue: 1)
        /// A hole (a border's inside): HOLES.
        static let hole = ShapeFeatures(rawValue: 2)
        /// A map from target pixels to the shape's plane with a perspective row: PROJECTIVE. Without it the
        /// shader takes w as 1 and the Jacobian as the map's linear part, which are the numbers the projective
        /// formula gives for an affine map, bit for bit.
        static let projective = ShapeFeatures(rawValue: 4)
        /// Other quads of the batch are drawn by coverage (the span table): SPANS.
        static let spans = ShapeFeatures(rawValue: 8)
        /// A map that is not a similarity (`ShapeCoverage.similarityScale` nil: a non-uniform scale, a shear,
        /// perspective): the distance's gradient through the Jacobian, per pixel: JACOBIAN. Without it the distance
        /// is divided by the similarity's scale.
        static let jacobian = ShapeFeatures(rawValue: 16)
        static let all: ShapeFeatures = [.continuous, .hole, .projective, .spans, .jacobian]

        var defines: [String] {
            [(ShapeFeatures.continuous, "CONTINUOUS"), (.hole, "HOLES"), (.projective, "PROJECTIVE"), (.spans, "SPANS"),
             (.jacobian, "JACOBIAN")].compactMap { contains($0.0) ? $0.1 : nil }
        }

        /// What the formula needs for `shape`.
        init(_ shape: ShapeCoverage) {
            var features: ShapeFeatures = []
            if shape.continuous { features.insert(.continuous) }
            if shape.inner != nil { features.insert(.hole) }
            if !shape.isAffine { features.insert(.projective) }
            if shape.similarityScale == nil { features.insert(.jacobian) }
            self = features
        }

        init(rawValue: UInt8) { self.rawValue = rawValue }
    }

    /// The per-instance attributes of quad.vert, in location order, with their float counts.
    static let attributes: [(name: String, size: Int32)] = [
        ("a_rect", 4), ("a_mapU", 3), ("a_mapV", 3), ("a_mapW", 3), ("a_clamp", 4), ("a_color", 4), ("a_offset", 2),
        ("a_rows", 1),  // last: a parallel encoding's join renumbers it (GLESPass+Parallel.swift)
    ]
    /// Floats per instance.
    static let instanceFloats = attributes.reduce(0) { $0 + Int($1.size) }

    let id: GLuint
    let targetSize: GLint
    let origin: GLint
    let swapRedBlue: GLint
    let image: GLint

    /// Locations of other uniforms, looked up once.
    private var locations: [String: GLint] = [:]

    /// The location of any other uniform (-1 when the program has none of that name), looked up on first use.
    func uniform(_ name: String) -> GLint {
        if let location = locations[name] { return location }
        let location = glGetUniformLocation(id, name)
        locations[name] = location
        return location
    }

    /// `pixelMaps`: the bilinear and trilinear programs evaluate the texture map per pixel (PIXEL_MAP; nearest ones
    /// always do), `GLESRenderer.Options.evaluatesTextureMapsPerPixel`.
    convenience init(_ kind: Kind, pixelMaps: Bool = false) throws {
        let filtered = kind.defines.contains("BILINEAR") || kind.defines.contains("TRILINEAR")
        try self.init(vertex: kind.shaders.vertex, fragment: kind.shaders.fragment,
                      defines: kind.defines + (pixelMaps && filtered ? ["PIXEL_MAP"] : []))
    }

    /// The program of two files of Shaders/, with `defines` for both shaders (quad.vert reads the shape table only
    /// with SHAPES).
    init(vertex vertexName: String, fragment fragmentName: String, defines: [String]) throws {
        let vertex = try Self.compile(vertexName, type: GLenum(GL_VERTEX_SHADER), defines: defines)
        defer { glDeleteShader(vertex) }
        let fragment = try Self.compile(fragmentName, type: GLenum(GL_FRAGMENT_SHADER), defines: defines)
        defer { glDeleteShader(fragment) }
        let program = glCreateProgram()
        glAttachShader(program, vertex)
        glAttachShader(program, fragment)
        for (location, attribute) in Self.attributes.enumerated() {
            glBindAttribLocation(program, GLuint(location), attribute.name)
        }
        glLinkProgram(program)
        var linked: GLint = 0
        glGetProgramiv(program, GLenum(GL_LINK_STATUS), &linked)
        guard linked == GL_TRUE else {
            let log = Self.log(program, glGetProgramiv, glGetProgramInfoLog)
            glDeleteProgram(program)
            throw RenderError.failed("linking \(vertexName) + \(fragmentName) failed: \(log)")
        }
        id = program
        targetSize = glGetUniformLocation(program, "u_targetSize")
        origin = glGetUniformLocation(program, "u_origin")
        swapRedBlue = glGetUniformLocation(program, "u_swapRedBlue")
        image = glGetUniformLocation(program, "u_image")
    }

    deinit { glDeleteProgram(id) }

    /// Compiles one file of Shaders/ (embedded at build time), with `defines` inserted after its #version line.
    static func compile(_ name: String, type: GLenum, defines: [String] = []) throws -> GLuint {
        guard var source = ShaderSources.all[name] else { throw RenderError.failed("no shader named \(name)") }
        if !defines.isEmpty, let end = source.firstIndex(of: "\n") {
            source.insert(contentsOf: defines.map { "\n#define \($0) 1" }.joined(), at: end)
        }
        return try compile(source: source, name: name + defines.map { " -D\($0)" }.joined(), type: type)
    }

    /// Compiles GLSL source; throws with the driver's log on failure.
    static func compile(source: String, name: String, type: GLenum) throws -> GLuint {
        let shader = glCreateShader(type)
        source.withCString { text in
            var pointer: UnsafePointer<GLchar>? = text
            glShaderSource(shader, 1, &pointer, nil)
        }
        glCompileShader(shader)
        var compiled: GLint = 0
        glGetShaderiv(shader, GLenum(GL_COMPILE_STATUS), &compiled)
        guard compiled == GL_TRUE else {
            let log = Self.log(shader, glGetShaderiv, glGetShaderInfoLog)
            glDeleteShader(shader)
            throw RenderError.failed("compiling \(name) failed: \(log)")
        }
        return shader
    }

    private static func log(
        _ object: GLuint, _ getParameter: (GLuint, GLenum, UnsafeMutablePointer<GLint>?) -> Void,
        _ getLog: (GLuint, GLsizei, UnsafeMutablePointer<GLsizei>?, UnsafeMutablePointer<GLchar>?) -> Void
    ) -> String {
        var length: GLint = 0
        getParameter(object, GLenum(GL_INFO_LOG_LENGTH), &length)
        guard length > 0 else { return "(no log)" }
        var buffer = [GLchar](repeating: 0, count: Int(length) + 1)
        getLog(object, GLsizei(length), nil, &buffer)
        return String(cString: buffer).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
