import CEGL

/// The shaders embedded from Shaders/, for code outside LaminaGLES that drives GL itself: the benchmark's
/// hand-written baseline loop (LaminaBench's `GLESBaseline`) compiles its `baseline.vert`/`baseline.frag` here,
/// so the shader sources stay in one generated table with the renderer's own.
public enum GLESShaders {
    /// Compiles the embedded shader `name` (a file name in Shaders/, e.g. "baseline.vert") as a shader of `type`
    /// on the current context; throws with the driver's log on failure. The caller deletes the returned object.
    public static func compile(_ name: String, type: GLenum) throws -> GLuint {
        try GLESProgram.compile(name, type: type)
    }
}
