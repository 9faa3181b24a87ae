/// Lamina's version, printed by `lamina info` and `lamina bench`.
public enum LaminaVersion {
    public static let string = "0.1.0"
}
