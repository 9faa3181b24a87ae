#!/usr/bin/env python3
"""Writes the tiny zip and dotLottie archives of the zip fuzz corpus and the archive tests.

Run once from the repository root: python3 tools/make-archive-fixtures.py
The files are committed. Python's zipfile wrote them, so they check Lamina's reader against another
writer than the tests' own ZipWriter: deflate, zip64 extra fields and records, and data descriptors.

  Fuzz/Corpus/zip/dotlottie-v1.lottie   manifest 1.0, animations/a.json, images/img_0.png (deflate)
  Fuzz/Corpus/zip/dotlottie-v2.lottie   manifest 2 with initial.animation "b", a/a.json, a/b.json, i/img_0.png
  Fuzz/Corpus/zip/stored.zip            stored entries and a folder entry
  Fuzz/Corpus/zip/zip64.zip             an entry written with force_zip64 (saturated sizes, zip64 extra field in its local header)
  Fuzz/Corpus/zip/streamed.lottie       written to a stream that cannot seek: data descriptors (flag bit 3)

The three .lottie files and zip64.zip are copied to Tests/LaminaImageIOTests/Fixtures as well.
"""

import io
import json
import os
import shutil
import struct
import zipfile
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
CORPUS = os.path.join(ROOT, "Fuzz", "Corpus", "zip")
FIXTURES = os.path.join(ROOT, "Tests", "LaminaImageIOTests", "Fixtures")

ANIMATION = json.dumps({
    "v": "5.7.4", "fr": 30, "ip": 0, "op": 30, "w": 32, "h": 32,
    "assets": [{"id": "image_0", "w": 1, "h": 1, "u": "/images/", "p": "img_0.png", "e": 0}],
    "layers": [],
}, separators=(",", ":"))


def png_white_pixel():
    """A 1x1 opaque white RGBA PNG."""
    def chunk(kind, payload):
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))
    header = struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\x00\xff\xff\xff\xff"))
            + chunk(b"IEND", b""))


PNG = png_white_pixel()


def info(name, compression=zipfile.ZIP_DEFLATED):
    """An entry with a fixed time, so that running the script again writes the same bytes."""
    entry = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
    entry.compress_type = compression
    return entry


def write(name, entries, compression=zipfile.ZIP_DEFLATED):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=compression) as archive:
        for entry, data in entries:
            archive.writestr(info(entry, compression), data)
    with open(os.path.join(CORPUS, name), "wb") as out:
        out.write(buffer.getvalue())


class Unseekable(io.RawIOBase):
    """A write-only stream: zipfile then writes data descriptors after each entry."""

    def __init__(self):
        super().__init__()
        self.data = bytearray()

    def writable(self):
        return True

    def write(self, data):
        self.data += data
        return len(data)


def main():
    os.makedirs(CORPUS, exist_ok=True)
    write("dotlottie-v1.lottie", [
        ("manifest.json", json.dumps({"version": "1.0", "animations": [{"id": "a"}], "activeAnimationId": "a"})),
        ("animations/a.json", ANIMATION),
        ("images/img_0.png", PNG),
    ])
    write("dotlottie-v2.lottie", [
        ("manifest.json", json.dumps({"version": "2", "animations": [{"id": "a"}, {"id": "b"}],
                                      "initial": {"animation": "b"}})),
        ("a/a.json", ANIMATION),
        ("a/b.json", ANIMATION),
        ("i/img_0.png", PNG),
    ])
    write("stored.zip", [("a.txt", "alpha"), ("dir/", ""), ("b.txt", "beta" * 20)], zipfile.ZIP_STORED)

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, allowZip64=True) as archive:
        with archive.open(info("big.txt"), "w", force_zip64=True) as entry:
            entry.write(b"zip64 " * 30)
        archive.writestr(info("manifest.json"), '{"animations":[{"id":"x"}]}')
    with open(os.path.join(CORPUS, "zip64.zip"), "wb") as out:
        out.write(buffer.getvalue())

    stream = Unseekable()
    with zipfile.ZipFile(stream, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(info("manifest.json"), '{"animations":[{"id":"s"}]}')
        archive.writestr(info("animations/s.json"), ANIMATION)
    with open(os.path.join(CORPUS, "streamed.lottie"), "wb") as out:
        out.write(bytes(stream.data))

    for name in ["dotlottie-v1.lottie", "dotlottie-v2.lottie", "streamed.lottie", "zip64.zip"]:
        shutil.copyfile(os.path.join(CORPUS, name), os.path.join(FIXTURES, name))


if __name__ == "__main__":
    main()
