/// What a `ZipArchive` agrees to read: counts and sizes checked against the central directory before anything
/// is inflated, so a zip bomb is refused by its declared sizes and can never inflate past them
/// (docs/archives.md).
public struct ZipLimits: Sendable, Equatable {
    /// The most entries (files and folders) an archive may list. Default 10,000.
    public var maxEntries: Int
    /// The largest uncompressed size of one entry, in bytes. Default 256 MiB.
    public var maxEntrySize: Int
    /// The largest sum of all entries' uncompressed sizes, in bytes. Default 1 GiB.
    public var maxTotalSize: Int
    /// The largest ratio of uncompressed to compressed size, for entries larger than `ratioThreshold`.
    /// Default 1,000 (deflate cannot do better than about 1,032:1; only data made to inflate hugely gets there).
    public var maxCompressionRatio: Int
    /// Entries up to this uncompressed size are exempt from the ratio limit. Default 1 MiB.
    public var ratioThreshold: Int
    /// The longest entry name, in bytes. Default 4,096.
    public var maxNameLength: Int

    public init(
        maxEntries: Int = 10_000, maxEntrySize: Int = 256 << 20, maxTotalSize: Int = 1 << 30,
        maxCompressionRatio: Int = 1_000, ratioThreshold: Int = 1 << 20, maxNameLength: Int = 4_096
    ) {
        self.maxEntries = maxEntries
        self.maxEntrySize = maxEntrySize
        self.maxTotalSize = maxTotalSize
        self.maxCompressionRatio = maxCompressionRatio
        self.ratioThreshold = ratioThreshold
        self.maxNameLength = maxNameLength
    }

    /// The defaults above.
    public static let `default` = ZipLimits()
}
