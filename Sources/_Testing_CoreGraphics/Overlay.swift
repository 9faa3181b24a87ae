// The toolchain's Swift Testing declares a cross-import overlay for any module named CoreGraphics
// (Testing.swiftcrossimport/CoreGraphics.swiftoverlay names `_Testing_CoreGraphics`) but ships none on Linux, so a
// test file importing both Testing and this package's CoreGraphics would fail with "no such module
// '_Testing_CoreGraphics'". This empty module is that overlay; CoreGraphics depends on it so that it is always built
// where CoreGraphics is (docs/porting.md, "Swift Testing").
