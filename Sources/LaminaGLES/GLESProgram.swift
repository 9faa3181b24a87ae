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
        /// Textures sampled at the nearest texel (also 1:1 whole-pixel copies).
        case nearest
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
        case solidCoverage, nearestCoverage, bilinearCoverage, trilinearCoverage
        /// The coverage variants that also compute the coverage of quads seen through a shape (Shaders/shape.glsl):
        /// circular corners only, and with continuous corners too. Compiled on first use.
        case solidShape, nearestShape, bilinearShape, trilinearShape
        case solidContinuous, nearestContinuous, bilinearContinuous, trilinearContinuous

        /// The shape programs, compiled when a frame first draws a shape (`GLESRenderer.program(_:)`).
        var isShape: Bool {
            switch self {
            case .solidShape, .nearestShape, .bilinearShape, .trilinearShape, .solidContinuous, .nearestContinuous,
                 .bilinearContinuous, .trilinearContinuous:
                return true
            default:
                return false
            }
        }

        /// The variant of a quad program that computes shapes' coverage (and reads the span table).
        func shaped(continuous: Bool) -> Kind {
            switch self {
            case .solid, .solidCoverage, .solidShape, .solidContinuous:
                return continuous ? .solidContinuous : .solidShape
            case .nearest, .nearestCoverage, .nearestShape, .nearestContinuous:
                return continuous ? .nearestContinuous : .nearestShape
            case .bilinear, .bilinearCoverage, .bilinearShape, .bilinearContinuous:
                return continuous ? .bilinearContinuous : .bilinearShape
            case .trilinear, .trilinearCoverage, .trilinearShape, .trilinearContinuous:
                return continuous ? .trilinearContinuous : .trilinearShape
            case .blur, .downsample:
                return self
            }
        }

        /// The variant of a quad program that reads the span table.
        var coverage: Kind {
            switch self {
            case .solid: return .solidCoverage
            case .nearest: return .nearestCoverage
            case .bilinear: return .bilinearCoverage
            case .trilinear: return .trilinearCoverage
            default: return self
            }
        }

        var shaders: (vertex: String, fragment: String) {
            switch self {
            case .solid, .solidCoverage, .solidShape, .solidContinuous: return ("quad.vert", "solid.frag")
            case .nearest, .bilinear, .trilinear, .nearestCoverage, .bilinearCoverage, .trilinearCoverage,
                 .nearestShape, .bilinearShape, .trilinearShape, .nearestContinuous, .bilinearContinuous,
                 .trilinearContinuous:
                return ("quad.vert", "texture.frag")
            case .blur, .downsample: return ("quad.vert", "blur.frag")
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
            case .solidCoverage: return ["SPANS"]
            case .nearestCoverage: return ["NEAREST", "SPANS"]
            case .bilinearCoverage: return ["BILINEAR", "SPANS"]
            case .trilinearCoverage: return ["TRILINEAR", "SPANS"]
            case .solidShape: return ["SPANS", "SHAPES"]
            case .nearestShape: return ["NEAREST", "SPANS", "SHAPES"]
            case .bilinearShape: return ["BILINEAR", "SPANS", "SHAPES"]
            case .trilinearShape: return ["TRILINEAR", "SPANS", "SHAPES"]
            case .solidContinuous: return ["SPANS", "SHAPES", "CONTINUOUS"]
            case .nearestContinuous: return ["NEAREST", "SPANS", "SHAPES", "CONTINUOUS"]
            case .bilinearContinuous: return ["BILINEAR", "SPANS", "SHAPES", "CONTINUOUS"]
            case .trilinearContinuous: return ["TRILINEAR", "SPANS", "SHAPES", "CONTINUOUS"]
            }
        }
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

    convenience init(_ kind: Kind) throws {
        try self.init(vertex: kind.shaders.vertex, fragment: kind.shaders.fragment, defines: kind.defines)
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
