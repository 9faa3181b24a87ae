"""Shared helpers for tools/lottie-bench.py and tools/lottie-conformance.py.

- PNG decode/encode with zlib + struct only (8-bit greyscale, grey+alpha, RGB, RGBA and palette images, 16-bit
  reduced to 8, no interlacing), pixels as straight (un-premultiplied) RGBA bytes.
- The peer renderers, rlottie (rlottie-python) and ThorVG (thorvg-python), drawing one Lottie file into a reused
  buffer at a chosen size, and converting what they drew to straight RGBA.
- The venv at .build/lottie-bench-venv that holds them (made on first use with `python3 -m venv` and pip).

No numpy needed; where numpy is importable the comparisons use it (same results, faster).
"""

import os
import struct
import subprocess
import sys
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, ".build", "lottie-bench-venv")
VENV_PACKAGES = ["rlottie-python", "thorvg-python", "numpy"]


# ---------------------------------------------------------------------------------------------------------------
# venv


def venv_python():
    return os.path.join(VENV, "bin", "python3")


def ensure_venv(argv, create=True, quiet=False):
    """Re-runs the calling script inside the venv (making it first when create) unless it already runs there.

    rlottie-python and thorvg-python come from PyPI (each wheel bundles its library); numpy only speeds up the
    picture comparisons. LOTTIE_BENCH_NO_VENV=1 runs with the current interpreter as it is."""
    if os.path.realpath(sys.prefix) == os.path.realpath(VENV):
        return
    if os.environ.get("LOTTIE_BENCH_NO_VENV") == "1":
        return
    py = venv_python()
    if not os.path.exists(py):
        if not create:
            return
        if not quiet:
            print(f"making {os.path.relpath(VENV, ROOT)} ({', '.join(VENV_PACKAGES)} from PyPI)", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        subprocess.run([py, "-m", "pip", "install", "-q"] + VENV_PACKAGES, check=True)
    os.execv(py, [py] + argv)


# ---------------------------------------------------------------------------------------------------------------
# PNG


class PNGError(Exception):
    pass


def _paeth(a, b, c):
    p = a + b - c
    pa = abs(p - a)
    pb = abs(p - b)
    pc = abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    if pb <= pc:
        return b
    return c


def _unfilter(raw, width, height, bpp, stride):
    out = bytearray(stride * height)
    prev = bytearray(stride)
    pos = 0
    for y in range(height):
        if pos + 1 + stride > len(raw):
            raise PNGError("truncated image data")
        ftype = raw[pos]
        line = bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        if ftype == 0:
            pass
        elif ftype == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif ftype == 2:
            line = bytearray((x + y) & 255 for x, y in zip(line, prev))
        elif ftype == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif ftype == 4:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                upleft = prev[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + _paeth(left, prev[i], upleft)) & 255
        else:
            raise PNGError(f"bad filter type {ftype}")
        out[y * stride:(y + 1) * stride] = line
        prev = line
    return out


def read_png(path):
    """Returns (width, height, straight RGBA bytes)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise PNGError(f"{path}: not a PNG")
    pos = 8
    idat = []
    palette = None
    trns = None
    ihdr = None
    while pos + 8 <= len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        ctype = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if ctype == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif ctype == b"PLTE":
            palette = body
        elif ctype == b"tRNS":
            trns = body
        elif ctype == b"IDAT":
            idat.append(body)
        elif ctype == b"IEND":
            break
    if ihdr is None:
        raise PNGError(f"{path}: no IHDR")
    width, height, depth, colour, _, _, interlace = ihdr
    if interlace:
        raise PNGError(f"{path}: interlaced PNGs are not read")
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}.get(colour)
    if channels is None or depth not in (8, 16) or (colour == 3 and depth != 8):
        raise PNGError(f"{path}: colour type {colour} at depth {depth} is not read")
    bpp = channels * depth // 8
    stride = width * bpp
    pix = _unfilter(zlib.decompress(b"".join(idat)), width, height, bpp, stride)
    if depth == 16:
        pix = pix[0::2]
    n = width * height
    if colour == 6:
        return width, height, bytes(pix)
    out = bytearray(n * 4)
    if colour == 2:
        out[0::4] = pix[0::3]
        out[1::4] = pix[1::3]
        out[2::4] = pix[2::3]
        out[3::4] = b"\xff" * n
        if trns is not None and len(trns) >= 6 and depth == 8:
            key = bytes((trns[1], trns[3], trns[5]))
            for i in range(n):
                if pix[i * 3:i * 3 + 3] == key:
                    out[i * 4 + 3] = 0
    elif colour == 0:
        out[0::4] = pix
        out[1::4] = pix
        out[2::4] = pix
        out[3::4] = b"\xff" * n
    elif colour == 4:
        out[0::4] = pix[0::2]
        out[1::4] = pix[0::2]
        out[2::4] = pix[0::2]
        out[3::4] = pix[1::2]
    elif colour == 3:
        if palette is None:
            raise PNGError(f"{path}: palette image without PLTE")
        table = []
        for i in range(len(palette) // 3):
            a = trns[i] if trns is not None and i < len(trns) else 255
            table.append(bytes(palette[i * 3:i * 3 + 3]) + bytes((a,)))
        out = bytearray(b"".join(table[p] if p < len(table) else b"\0\0\0\xff" for p in pix))
    return width, height, bytes(out)


def write_png(path, width, height, rgba):
    """Writes straight RGBA bytes as an 8-bit RGBA PNG (filter 0 on every row)."""
    stride = width * 4
    raw = b"".join(b"\0" + rgba[y * stride:(y + 1) * stride] for y in range(height))

    def chunk(t, body):
        return struct.pack(">I", len(body)) + t + body + struct.pack(">I", zlib.crc32(t + body) & 0xFFFFFFFF)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 6)))
        f.write(chunk(b"IEND", b""))


# ---------------------------------------------------------------------------------------------------------------
# pixel conversions


def unpremultiply(rgba):
    """Premultiplied RGBA bytes -> straight RGBA bytes."""
    out = bytearray(rgba)
    for i in range(3, len(out), 4):
        a = out[i]
        if a == 255:
            continue
        if a == 0:
            out[i - 3] = out[i - 2] = out[i - 1] = 0
            continue
        for k in (1, 2, 3):
            out[i - k] = min(255, (out[i - k] * 255 + a // 2) // a)
    return bytes(out)


def premultiply(rgba):
    out = bytearray(rgba)
    for i in range(3, len(out), 4):
        a = out[i]
        if a == 255:
            continue
        for k in (1, 2, 3):
            out[i - k] = (out[i - k] * a + 127) // 255
    return bytes(out)


def bgra_to_rgba(buf):
    out = bytearray(buf)
    out[0::4] = buf[2::4]
    out[2::4] = buf[0::4]
    return bytes(out)


# ---------------------------------------------------------------------------------------------------------------
# peers


class RlottieRenderer:
    """rlottie through rlottie-python's bundled librlottie: integer frames counted from ip (rlottie adds the start
    frame itself), premultiplied ARGB32 (BGRA bytes) into a buffer this object keeps."""

    name = "rlottie"

    def __init__(self, path, width, height, ip=0.0):
        import ctypes
        from rlottie_python import LottieAnimation

        self._ctypes = ctypes
        self.anim = LottieAnimation.from_file(path)
        self.width, self.height = width, height
        self.size = width * height * 4
        self.buf = ctypes.create_string_buffer(self.size)
        lib = self.anim.rlottie_lib
        self._render = lib.lottie_animation_render
        self._render.argtypes = [type(self.anim.animation_p), ctypes.c_size_t, ctypes.c_void_p,
                                 ctypes.c_size_t, ctypes.c_size_t, ctypes.c_size_t]
        self._render.restype = None
        self.ip = ip

    @staticmethod
    def version():
        try:
            from importlib.metadata import version
            return "rlottie-python " + version("rlottie-python")
        except Exception:
            return "rlottie-python"

    def render(self, frame):
        """frame: the absolute frame number (ip + t * fr); rlottie draws whole frames, so it is rounded."""
        rel = max(0, int(round(frame - self.ip)))
        self._render(self.anim.animation_p, rel, self.buf, self.width, self.height, self.width * 4)

    def rgba(self):
        """The last frame as straight RGBA bytes."""
        return unpremultiply(bgra_to_rgba(self.buf.raw))


class ThorvgRenderer:
    """ThorVG through thorvg-python's bundled libthorvg: fractional frames relative to ip, software canvas on the
    calling thread only (engine threads 0), premultiplied ABGR8888 (RGBA bytes)."""

    name = "thorvg"
    _engine = None

    def __init__(self, path, width, height, ip=0.0):
        import thorvg_python as tvg

        if ThorvgRenderer._engine is None:
            ThorvgRenderer._engine = tvg.Engine(threads=0)
        eng = ThorvgRenderer._engine
        self.ip = ip
        self.anim = tvg.LottieAnimation(eng)
        self.pic = self.anim.get_picture()
        if self.pic.load(path) != tvg.Result.SUCCESS:
            raise RuntimeError(f"ThorVG could not load {path}")
        self.pic.set_size(width, height)
        self.canvas = tvg.SwCanvas(eng)
        self.canvas.set_target(width, height, cs=tvg.Colorspace.ABGR8888)
        self.canvas.add(self.pic)
        self.width, self.height = width, height
        self._frame = None

    @staticmethod
    def version():
        try:
            from importlib.metadata import version
            return "thorvg-python " + version("thorvg-python")
        except Exception:
            return "thorvg-python"

    def render(self, frame):
        """frame: the absolute frame number; ThorVG counts from ip and draws fractional frames."""
        rel = max(0.0, frame - self.ip)
        self.anim.set_frame(rel)
        self.canvas.update()
        self.canvas.draw(True)
        self.canvas.sync()

    def rgba(self):
        return unpremultiply(bytes(self.canvas.buffer_arr))


PEERS = {"rlottie": RlottieRenderer, "thorvg": ThorvgRenderer}


def make_peer(name, path, width, height, ip=0.0):
    if name == "rlottie":
        return RlottieRenderer(path, width, height, ip)
    if name == "thorvg":
        return ThorvgRenderer(path, width, height, ip)
    raise ValueError(f"unknown renderer {name!r} (rlottie or thorvg)")
