#!/usr/bin/env python3
"""Writes the tiny PNG and JPEG files under Tests/LaminaImageIOTests/Fixtures.

Run once from the repository root: python3 tools/make-image-fixtures.py
The files are committed; the tests assert exact pixel values that follow from the pixel lists here, so
change both together.

PNG files are built byte by byte with zlib and struct, so every colour type, bit depth, chunk and
corruption is exactly what the test expects. JPEG files are made by the system's libturbojpeg through
ctypes (the library Lamina itself links), so no third-party Python package is needed; the progressive JPEGs
with hundreds of scans by tools/fixtures/jpeg-scans.c, built here with the C compiler and libjpeg (Debian's
libjpeg62-turbo-dev), since neither TurboJPEG nor cjpeg writes a scan script that long. Those are also
written to Fuzz/Corpus/jpeg/ as seeds.
"""

import ctypes
import ctypes.util
import os
import struct
import subprocess
import tempfile
import zlib

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "LaminaImageIOTests", "Fixtures")
CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fuzz", "Corpus", "jpeg")

# PNG colour types.
GREY, RGB, PALETTE, GREY_ALPHA, RGBA = 0, 2, 3, 4, 6


def chunk(kind, payload, crc=None):
    """One PNG chunk; `crc` overrides the correct CRC to make a corrupt file."""
    body = kind + payload
    if crc is None:
        crc = zlib.crc32(body) & 0xFFFFFFFF
    return struct.pack(">I", len(payload)) + body + struct.pack(">I", crc)


def ihdr(width, height, depth, colour, interlace=0):
    return chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, interlace))


SIGNATURE = b"\x89PNG\r\n\x1a\n"


def pack_row(samples, depth):
    """Packs one row of samples (already flattened over channels) at `depth` bits, MSB first."""
    if depth == 8:
        return bytes(samples)
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    out, bits, count = bytearray(), 0, 0
    for s in samples:
        bits = (bits << depth) | s
        count += depth
        if count == 8:
            out.append(bits)
            bits, count = 0, 0
    if count:
        out.append(bits << (8 - count))
    return bytes(out)


def scanlines(rows, depth):
    """Filter type 0 (None) before every row: simple and exact."""
    return b"".join(b"\x00" + pack_row(row, depth) for row in rows)


def png(width, height, depth, colour, rows, extra=b"", before_idat=b""):
    """A PNG from rows of flattened samples. `before_idat` holds PLTE, tRNS, gAMA..."""
    data = zlib.compress(scanlines(rows, depth), 9)
    return (SIGNATURE + ihdr(width, height, depth, colour) + before_idat + chunk(b"IDAT", data) + extra
            + chunk(b"IEND", b""))


ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def interlaced_png(width, height, pixels):
    """An 8-bit RGBA Adam7 PNG; `pixels[y][x]` is an (r, g, b, a) tuple."""
    raw = b""
    for x0, y0, dx, dy in ADAM7:
        xs = range(x0, width, dx)
        ys = range(y0, height, dy)
        if not xs or not ys:
            continue
        for y in ys:
            raw += b"\x00" + bytes(c for x in xs for c in pixels[y][x])
    return (SIGNATURE + ihdr(width, height, 8, RGBA, interlace=1) + chunk(b"IDAT", zlib.compress(raw, 9))
            + chunk(b"IEND", b""))


def flat(pixels):
    return [c for p in pixels for c in p]


def write(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
    print(f"{name}: {len(data)} bytes")


def make_pngs():
    # 4x2 RGBA: opaque primaries and white, then transparent and semi-transparent pixels. The pixel with
    # alpha 0 and colour (200, 100, 50) checks that colour under zero alpha is dropped.
    rgba_rows = [
        [(255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255), (255, 255, 255, 255)],
        [(200, 100, 50, 0), (255, 0, 0, 128), (10, 200, 30, 64), (255, 255, 255, 1)],
    ]
    write("rgba8.png", png(4, 2, 8, RGBA, [flat(r) for r in rgba_rows]))

    write("rgb8.png", png(3, 1, 8, RGB, [flat([(255, 0, 0), (0, 128, 255), (17, 34, 51)])]))

    # Greys: every value a depth can hold, in a width that leaves padding bits in the last byte.
    write("grey1.png", png(10, 1, 1, GREY, [[1, 0, 1, 1, 0, 0, 1, 0, 0, 1]]))
    write("grey2.png", png(5, 1, 2, GREY, [[0, 1, 2, 3, 1]]))
    write("grey4.png", png(16, 1, 4, GREY, [list(range(16))]))
    write("grey8.png", png(6, 1, 8, GREY, [[0, 1, 127, 128, 254, 255]]))
    write("grey-alpha8.png", png(4, 1, 8, GREY_ALPHA, [flat([(255, 255), (0, 0), (128, 128), (200, 51)])]))

    # Palette, 4-bit indices: red, green, blue, grey.
    plte = chunk(b"PLTE", bytes([255, 0, 0, 0, 255, 0, 0, 0, 255, 100, 100, 100]))
    write("palette4.png", png(5, 1, 4, PALETTE, [[0, 1, 2, 3, 0]], before_idat=plte))
    # Same palette with tRNS: entry 1 transparent, entry 2 half, entry 3 (no tRNS entry) opaque.
    trns = chunk(b"tRNS", bytes([255, 0, 128]))
    write("palette-trns8.png", png(4, 1, 8, PALETTE, [[0, 1, 2, 3]], before_idat=plte + trns))

    # 16-bit RGBA: 0xABAB-style samples reduce to 0xAB exactly; the semi-transparent pixel has alpha 0x8080.
    rgba16 = [(0xFFFF, 0, 0, 0xFFFF), (0x1212, 0xABAB, 0xFEFE, 0xFFFF), (0, 0, 0, 0), (0xFFFF, 0xFFFF, 0, 0x8080)]
    write("rgba16.png", png(4, 1, 16, RGBA, [flat(rgba16)]))

    # Adam7, 8x8, every pixel different: r = 32x, g = 32y, b = 255 - 8(x + y), a = 255 except one.
    pixels = [[(32 * x, 32 * y, 255 - 8 * (x + y), 255) for x in range(8)] for y in range(8)]
    pixels[5][3] = (255, 255, 255, 128)
    write("interlaced.png", interlaced_png(8, 8, pixels))

    # gAMA 1.0 (linear samples): the decoder must convert to sRGB on the way to 8-bit.
    gama = chunk(b"gAMA", struct.pack(">I", 100000))
    write("gamma-linear.png", png(3, 1, 8, RGB, [flat([(0, 0, 0), (128, 128, 128), (255, 255, 255)])],
                                  before_idat=gama))

    # Corrupt files, from a 24x24 RGB pattern big enough that cutting it lands inside IDAT.
    grad = [flat([((x * 10) & 255, (y * 10) & 255, (x * y) & 255) for x in range(24)]) for y in range(24)]
    good = png(24, 24, 8, RGB, grad)
    write("truncated.png", good[: len(good) // 2])
    idat_at = good.index(b"IDAT")
    length = struct.unpack(">I", good[idat_at - 4: idat_at])[0]
    crc_at = idat_at + 4 + length
    bad_crc = good[:crc_at] + bytes(b ^ 0xFF for b in good[crc_at: crc_at + 4]) + good[crc_at + 4:]
    write("bad-crc.png", bad_crc)
    # A zlib stream with a wrong header byte but correct chunk CRCs: only the inflater can tell.
    garbage = b"\x78\x9c" + bytes((i * 37) & 255 for i in range(40))
    write("corrupt-idat.png", SIGNATURE + ihdr(4, 4, 8, RGB) + chunk(b"IDAT", garbage) + chunk(b"IEND", b""))

    # A header that claims 100000 x 100000: must be refused before any pixel memory is allocated.
    write("huge.png", SIGNATURE + ihdr(100000, 100000, 8, RGBA) + chunk(b"IDAT", zlib.compress(b"\x00" * 16))
          + chunk(b"IEND", b""))
    # Zero width, which PNG forbids.
    write("zero-width.png", SIGNATURE + ihdr(0, 4, 8, RGBA) + chunk(b"IDAT", zlib.compress(b""))
          + chunk(b"IEND", b""))

    with open(os.path.join(OUT, "not-an-image.png"), "w") as f:
        f.write("This is a text file with a .png name.\n")


# TurboJPEG constants (turbojpeg.h).
TJPF_RGB, TJPF_GRAY, TJPF_CMYK = 0, 6, 11
TJSAMP_444, TJSAMP_420, TJSAMP_GRAY = 0, 2, 3
TJFLAG_ACCURATEDCT = 4096
TJFLAG_PROGRESSIVE = 16384


def jpeg(width, height, pixel_format, samples, subsampling, quality=100, flags=TJFLAG_ACCURATEDCT):
    tj = ctypes.CDLL(ctypes.util.find_library("turbojpeg") or "libturbojpeg.so.0")
    tj.tjInitCompress.restype = ctypes.c_void_p
    tj.tjCompress2.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                               ctypes.c_int, ctypes.POINTER(ctypes.POINTER(ctypes.c_ubyte)),
                               ctypes.POINTER(ctypes.c_ulong), ctypes.c_int, ctypes.c_int, ctypes.c_int]
    tj.tjFree.argtypes = [ctypes.c_void_p]
    tj.tjDestroy.argtypes = [ctypes.c_void_p]
    handle = tj.tjInitCompress()
    out = ctypes.POINTER(ctypes.c_ubyte)()
    size = ctypes.c_ulong(0)
    if tj.tjCompress2(handle, bytes(samples), width, 0, height, pixel_format, ctypes.byref(out),
                      ctypes.byref(size), subsampling, quality, flags) != 0:
        raise RuntimeError("tjCompress2 failed")
    data = ctypes.string_at(out, size.value)
    tj.tjFree(out)
    tj.tjDestroy(handle)
    return data


def make_jpegs():
    # 16x16 colour, four solid 8x8 quadrants aligned with the DCT blocks, no chroma subsampling, so that
    # decoding comes back within a few levels of the source.
    quadrants = [[(230, 30, 40), (40, 200, 60)], [(30, 60, 220), (250, 250, 250)]]
    colour = [c for y in range(16) for x in range(16) for c in quadrants[y // 8][x // 8]]
    colour_jpeg = jpeg(16, 16, TJPF_RGB, colour, TJSAMP_444)
    write("colour.jpg", colour_jpeg)

    # 16x8 greyscale, two solid blocks.
    write("grey.jpg", jpeg(16, 8, TJPF_GRAY, [50 if x < 8 else 200 for y in range(8) for x in range(16)],
                           TJSAMP_GRAY))

    # A 32x32 pattern with enough detail that its entropy-coded data is long, cut halfway through that
    # data: the header is intact (the size can be read) but libjpeg reports "Premature end of JPEG file"
    # as a warning and pads with grey, which Lamina must treat as an error.
    pattern = [c for y in range(32) for x in range(32) for c in ((x * 8) & 255, (y * 8) & 255, (x * y * 3) & 255)]
    pattern_jpeg = jpeg(32, 32, TJPF_RGB, pattern, TJSAMP_420, quality=90)
    scan = pattern_jpeg.index(b"\xff\xda")
    write("truncated.jpg", pattern_jpeg[: (scan + len(pattern_jpeg)) // 2])

    # CMYK, which Lamina refuses rather than guessing at the inversion and colour profile.
    write("cmyk.jpg", jpeg(8, 8, TJPF_CMYK, [0, 255, 255, 0] * 64, TJSAMP_444))


def make_scan_jpegs():
    """16x16 greyscale progressive JPEGs of 120, 500 and 501 scans (pixels x * 16 + y, quality 100): TurboJPEG's
    TJFLAG_LIMITSCANS, which Lamina sets, refuses more than 500; 500 and fewer decode."""
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "jpeg-scans.c")
    with tempfile.TemporaryDirectory() as folder:
        tool = os.path.join(folder, "jpeg-scans")
        subprocess.run(["cc", "-O1", source, "-ljpeg", "-o", tool], check=True)
        for scans in (120, 500, 501):
            data = subprocess.run([tool, str(scans)], check=True, stdout=subprocess.PIPE).stdout
            assert data.count(b"\xff\xda") == scans, "one SOS marker a scan"
            write("scans-%d.jpg" % scans, data)
            with open(os.path.join(CORPUS, "scans-%d.jpg" % scans), "wb") as f:
                f.write(data)
            if scans == 500:
                # The same with its frame header saying 4096 x 4096: 500 passes over 16.8 million pixels, refused
                # before decoding (JPEGScanTests patches the fixture the same way).
                frame = data.index(b"\xff\xc2")
                big = data[:frame + 5] + b"\x10\x00\x10\x00" + data[frame + 9:]
                with open(os.path.join(CORPUS, "scans-500-4096.jpg"), "wb") as f:
                    f.write(big)

    # 2048x2048 colour, progressive, 4:4:4, a smooth gradient (a small file): libjpeg keeps all its coefficients
    # while it decodes, 24 MiB beside the 16 MiB image, which DecodingMemoryTests measures. Not a fuzz seed (too
    # slow to decode for a fuzzer's many runs).
    size = 2048
    gradient = bytearray(size * size * 3)
    for y in range(size):
        row = bytes(c for x in range(size) for c in (x // 8, y // 8, 128))
        gradient[y * size * 3:(y + 1) * size * 3] = row
    write("progressive-2048.jpg", jpeg(size, size, TJPF_RGB, gradient, TJSAMP_444, quality=75,
                                       flags=TJFLAG_ACCURATEDCT | TJFLAG_PROGRESSIVE))


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    make_pngs()
    make_jpegs()
    make_scan_jpegs()
