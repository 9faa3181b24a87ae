#!/usr/bin/env python3
"""Makes the flat-coloured test images of the reference-scene corpus (every folder here but core/).

Only zlib and struct: each image is a list of rows of straight RGBA tuples, written as an 8-bit RGBA PNG
(colour type 6, filter 0 on every row). Run from anywhere: python3 make_images.py
The layouts are described next to each image; the probes files derive their expected colours from them.
"""
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))

RED = (255, 0, 0, 255)
GREEN = (0, 255, 0, 255)
BLUE = (0, 0, 255, 255)
YELLOW = (255, 255, 0, 255)
MAGENTA = (255, 0, 255, 255)
CYAN = (0, 255, 255, 255)
ORANGE = (255, 128, 0, 255)
PURPLE = (128, 0, 255, 255)
DKGREEN = (0, 128, 0, 255)
NAVY = (0, 0, 128, 255)
MAROON = (128, 0, 0, 255)
TEAL = (0, 128, 128, 255)
OLIVE = (128, 128, 0, 255)
WHITE = (255, 255, 255, 255)
BLACK = (0, 0, 0, 255)
PINK = (255, 128, 192, 255)
GRAY = (128, 128, 128, 255)


def write_png(path, rows):
    height = len(rows)
    width = len(rows[0])
    raw = bytearray()
    for row in rows:
        assert len(row) == width
        raw.append(0)
        for pixel in row:
            raw.extend(bytes(pixel))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n"
    png += chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(bytes(raw), 9))
    png += chunk(b"IEND", b"")
    full = os.path.join(HERE, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "wb") as f:
        f.write(png)


def image(width, height, colour_at):
    return [[colour_at(x, y) for x in range(width)] for y in range(height)]


def cells(width, height, xs, ys, colours):
    """A grid: xs and ys are the cell boundaries ([0, a, b, width]), colours[row][column]."""

    def at(x, y):
        column = max(i for i in range(len(xs) - 1) if xs[i] <= x)
        row = max(j for j in range(len(ys) - 1) if ys[j] <= y)
        return colours[row][column]

    return image(width, height, at)


def quadrants(width, height, tl=RED, tr=GREEN, bl=BLUE, br=YELLOW):
    return cells(width, height, [0, width // 2, width], [0, height // 2, height], [[tl, tr], [bl, br]])


PHOTO_TL = (200, 80, 60, 255)
PHOTO_TR = (60, 140, 200, 255)
PHOTO_BL = (90, 170, 90, 255)
PHOTO_BR = (220, 190, 70, 255)

NINE = [[RED, GREEN, BLUE], [YELLOW, MAGENTA, CYAN], [ORANGE, PURPLE, DKGREEN]]
NINE_B = [[NAVY, MAROON, TEAL], [OLIVE, PINK, WHITE], [BLACK, GRAY, CYAN]]


def main():
    # gravity/
    write_png("gravity/quad60x40.png", quadrants(60, 40))  # 30x20 quadrants: red green / blue yellow
    # 4 columns x 2 rows of 16x16 cells
    write_png("gravity/grid64x32.png", cells(64, 32, [0, 16, 32, 48, 64], [0, 16, 32],
                                             [[RED, GREEN, BLUE, YELLOW], [MAGENTA, CYAN, ORANGE, PURPLE]]))
    write_png("gravity/tall20x60.png", cells(20, 60, [0, 20], [0, 20, 40, 60], [[RED], [GREEN], [BLUE]]))
    write_png("gravity/wide60x20.png", cells(60, 20, [0, 20, 40, 60], [0, 20], [[RED, GREEN, BLUE]]))

    # nineslice/
    write_png("nineslice/grid40.png", cells(40, 40, [0, 10, 30, 40], [0, 10, 30, 40], NINE))
    write_png("nineslice/asym40.png", cells(40, 40, [0, 8, 28, 40], [0, 10, 35, 40], NINE))
    write_png("nineslice/pair80x40.png", cells(80, 40, [0, 10, 30, 40, 50, 70, 80], [0, 10, 30, 40],
                                               [NINE[r] + NINE_B[r] for r in range(3)]))
    write_png("nineslice/aspect40x20.png", cells(40, 20, [0, 10, 30, 40], [0, 5, 15, 20], NINE))
    write_png("nineslice/zerocol21x40.png", cells(21, 40, [0, 10, 11, 21], [0, 10, 30, 40], NINE))

    # transforms/, clip/, scale/
    write_png("transforms/lr20x10.png", cells(20, 10, [0, 10, 20], [0, 10], [[RED, BLUE]]))
    write_png("transforms/quad40.png", quadrants(40, 40))
    write_png("clip/quad40.png", quadrants(40, 40))
    write_png("scale/quad40.png", quadrants(40, 40))
    write_png("scale/lr20x10.png", cells(20, 10, [0, 10, 20], [0, 10], [[RED, BLUE]]))
    write_png("tree/quad40.png", quadrants(40, 40))
    write_png("scale/grid40.png", cells(40, 40, [0, 10, 30, 40], [0, 10, 30, 40], NINE))

    # tree/: 4 columns of 10x20: opaque red, red at alpha 128, green at alpha 64, fully transparent
    write_png("tree/alpha40x20.png", cells(40, 20, [0, 10, 20, 30, 40], [0, 20],
                                           [[RED, (255, 0, 0, 128), (0, 255, 0, 64), (0, 0, 0, 0)]]))

    # filters/
    write_png("filters/rb2x1.png", [[RED, BLUE]])
    write_png("filters/rb1x2.png", [[RED], [BLUE]])
    write_png("filters/quad2x2.png", [[RED, GREEN], [BLUE, YELLOW]])
    # 1-pixel checks: texel (i, j) is red when i + j is even, blue when odd
    write_png("filters/checker40.png", image(40, 40, lambda x, y: RED if (x + y) % 2 == 0 else BLUE))

    # effects/: 4-texel black and white checks shifted by 2: texel (x, y) white when exactly one of
    # (x + 2) % 8 < 4 and (y + 2) % 8 < 4 holds. Texels 8i + 3 and 8i + 4 are black on both axes.
    write_png("effects/checker256.png", image(256, 256, lambda x, y: WHITE if ((x + 2) % 8 < 4) != ((y + 2) % 8 < 4)
                                               else BLACK))

    # effects/: a "photo" of four flat muted quadrants (TL, TR / BL, BR as PHOTO_* below), 40x30 and 40x40,
    # and 4 columns of 10x20: red, green, blue, yellow.
    write_png("effects/photo40x30.png", quadrants(40, 30, PHOTO_TL, PHOTO_TR, PHOTO_BL, PHOTO_BR))
    write_png("effects/photo40x40.png", quadrants(40, 40, PHOTO_TL, PHOTO_TR, PHOTO_BL, PHOTO_BR))
    write_png("effects/stripes40x20.png", cells(40, 20, [0, 10, 20, 30, 40], [0, 20], [[RED, GREEN, BLUE, YELLOW]]))

    # sprites/: see the plists next to them for the frames.
    sprites_format2()
    sprites_format3()


def sprite_sheet(width, height, frames):
    """frames: (x, y, w, h, rotated, upright_colour_at(sx, sy)); the rest of the sheet is black.
    A rotated frame of upright size w x h is stored turned 90 degrees clockwise in h x w pixels at (x, y):
    stored pixel (X, Y) shows the upright pixel (sx, sy) = (Y, h - 1 - X)."""
    rows = [[BLACK for _ in range(width)] for _ in range(height)]
    for (x, y, w, h, rotated, colour_at) in frames:
        if rotated:
            for Y in range(w):
                for X in range(h):
                    rows[y + Y][x + X] = colour_at(Y, h - 1 - X)
        else:
            for sy in range(h):
                for sx in range(w):
                    rows[y + sy][x + sx] = colour_at(sx, sy)
    return rows


def quad_fn(w, h, tl, tr, bl, br):
    return lambda sx, sy: (tl if sx < w // 2 else tr) if sy < h // 2 else (bl if sx < w // 2 else br)


FORMAT2_FRAMES = [
    # name, x, y, w, h (upright), rotated, colours TL TR BL BR
    ("hero-up.png", 0, 0, 24, 16, False, (RED, BLUE, GREEN, YELLOW)),
    ("hero-turned.png", 24, 0, 24, 16, True, (MAGENTA, CYAN, ORANGE, PURPLE)),
    ("tall.png", 40, 0, 16, 24, False, (DKGREEN, NAVY, MAROON, TEAL)),
    ("wide-turned.png", 0, 24, 20, 30, True, (YELLOW, RED, BLUE, GREEN)),
    ("small.png", 30, 24, 10, 10, False, (CYAN, MAGENTA, CYAN, MAGENTA)),
]

FORMAT3_FRAMES = [
    ("a", 0, 0, 16, 12, False, (RED, GREEN, BLUE, YELLOW)),
    ("b", 16, 0, 16, 12, True, (CYAN, MAGENTA, PURPLE, ORANGE)),
    ("c", 0, 16, 10, 20, True, (NAVY, OLIVE, TEAL, MAROON)),
]


def sheet_rows(width, height, frames):
    return sprite_sheet(width, height, [
        (x, y, w, h, rot, quad_fn(w, h, *colours)) for (_, x, y, w, h, rot, colours) in frames])


def sprites_format2():
    write_png("sprites/sheet2.png", sheet_rows(64, 64, FORMAT2_FRAMES))
    entries = []
    for (name, x, y, w, h, rotated, _) in FORMAT2_FRAMES:
        entries.append(f"""        <key>{name}</key>
        <dict>
            <key>frame</key>
            <string>{{{{{x},{y}}},{{{w},{h}}}}}</string>
            <key>offset</key>
            <string>{{0,0}}</string>
            <key>rotated</key>
            <{'true' if rotated else 'false'}/>
            <key>sourceColorRect</key>
            <string>{{{{0,0}},{{{w},{h}}}}}</string>
            <key>sourceSize</key>
            <string>{{{w},{h}}}</string>
        </dict>
""")
    write_text("sprites/sheet2.plist", PLIST_HEAD + "    <key>frames</key>\n    <dict>\n" + "".join(entries)
               + """    </dict>
    <key>metadata</key>
    <dict>
        <key>format</key>
        <integer>2</integer>
        <key>realTextureFileName</key>
        <string>sheet2.png</string>
        <key>size</key>
        <string>{64,64}</string>
        <key>smartupdate</key>
        <string>$TexturePacker:SmartUpdate:corpus$</string>
        <key>textureFileName</key>
        <string>sheet2.png</string>
    </dict>
</dict>
</plist>
""")


def sprites_format3():
    write_png("sprites/sheet3.png", sheet_rows(32, 32, FORMAT3_FRAMES))
    entries = []
    for (name, x, y, w, h, rotated, _) in FORMAT3_FRAMES:
        entries.append(f"""        <key>{name}</key>
        <dict>
            <key>aliases</key>
            <array/>
            <key>spriteOffset</key>
            <string>{{0,0}}</string>
            <key>spriteSize</key>
            <string>{{{w},{h}}}</string>
            <key>spriteSourceSize</key>
            <string>{{{w},{h}}}</string>
            <key>textureRect</key>
            <string>{{{{{x},{y}}},{{{w},{h}}}}}</string>
            <key>textureRotated</key>
            <{'true' if rotated else 'false'}/>
        </dict>
""")
    write_text("sprites/sheet3.plist", PLIST_HEAD + "    <key>frames</key>\n    <dict>\n" + "".join(entries)
               + """    </dict>
    <key>metadata</key>
    <dict>
        <key>format</key>
        <integer>3</integer>
        <key>pixelFormat</key>
        <string>RGBA8888</string>
        <key>premultiplyAlpha</key>
        <false/>
        <key>realTextureFileName</key>
        <string>sheet3.png</string>
        <key>size</key>
        <string>{32,32}</string>
        <key>smartupdate</key>
        <string>$TexturePacker:SmartUpdate:corpus$</string>
        <key>textureFileName</key>
        <string>sheet3.png</string>
    </dict>
</dict>
</plist>
""")


PLIST_HEAD = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple Computer//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
"""


def write_text(path, text):
    full = os.path.join(HERE, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
