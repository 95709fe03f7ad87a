"""A QR code (ISO/IEC 18004) for the phone address on the big screen, as SVG.

Byte mode, error correction level M, versions 1 to 6 (up to 106 bytes: any LAN address). No
allowed dependency draws QR codes, and this small a subset fits in one module; the tests read
what it draws back with OpenCV's QR decoder.
"""

from __future__ import annotations

from collections.abc import Callable

#: Level M, versions 1-6: (error correction codewords per block, blocks, data codewords a block).
_BLOCKS = {
    1: (10, 1, 16),
    2: (16, 1, 28),
    3: (26, 1, 44),
    4: (18, 2, 32),
    5: (24, 2, 43),
    6: (16, 4, 27),
}
_MASKS: tuple[Callable[[int, int], bool], ...] = (
    lambda x, y: (x + y) % 2 == 0,
    lambda x, y: y % 2 == 0,
    lambda x, y: x % 3 == 0,
    lambda x, y: (x + y) % 3 == 0,
    lambda x, y: (x // 3 + y // 2) % 2 == 0,
    lambda x, y: x * y % 2 + x * y % 3 == 0,
    lambda x, y: (x * y % 2 + x * y % 3) % 2 == 0,
    lambda x, y: ((x + y) % 2 + x * y % 3) % 2 == 0,
)

# GF(256) with the polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11D), for Reed-Solomon.
_EXP = [0] * 512
_LOG = [0] * 256
_value = 1
for _power in range(255):
    _EXP[_power] = _value
    _LOG[_value] = _power
    _value <<= 1
    if _value & 0x100:
        _value ^= 0x11D
for _power in range(255, 512):
    _EXP[_power] = _EXP[_power - 255]


def _multiply(a: int, b: int) -> int:
    return 0 if a == 0 or b == 0 else _EXP[_LOG[a] + _LOG[b]]


def _error_correction(data: list[int], degree: int) -> list[int]:
    """The Reed-Solomon check codewords of ``data``: the remainder of data * x^degree divided
    by the generator (x - a^0)(x - a^1)...(x - a^(degree-1))."""
    generator = [1]
    for power in range(degree):
        generator = [
            (generator[i] if i < len(generator) else 0)
            ^ (_multiply(generator[i - 1], _EXP[power]) if i > 0 else 0)
            for i in range(len(generator) + 1)
        ]
    remainder = [0] * degree
    for byte in data:
        factor = byte ^ remainder[0]
        remainder = remainder[1:] + [0]
        for i in range(degree):
            remainder[i] ^= _multiply(generator[i + 1], factor)
    return remainder


def _codewords(text: bytes) -> tuple[int, list[int]]:
    """The smallest version that holds ``text`` and its interleaved codewords."""
    fitting = [v for v, (_, blocks, size) in _BLOCKS.items() if len(text) + 2 <= blocks * size]
    if not fitting:  # 4 mode bits + 8 count bits + the data must fit
        raise ValueError(f"{len(text)} bytes is too long for a QR code here (at most 106)")
    version = fitting[0]
    ec, blocks, per_block = _BLOCKS[version]
    capacity = blocks * per_block
    bits = "0100" + format(len(text), "08b") + "".join(format(b, "08b") for b in text)
    bits += "0" * min(4, capacity * 8 - len(bits))
    bits += "0" * (-len(bits) % 8)
    data = [int(bits[i : i + 8], 2) for i in range(0, len(bits), 8)]
    data += [(0xEC, 0x11)[i % 2] for i in range(capacity - len(data))]
    chunks = [data[i * per_block : (i + 1) * per_block] for i in range(blocks)]
    checks = [_error_correction(chunk, ec) for chunk in chunks]
    interleaved = [chunk[i] for i in range(per_block) for chunk in chunks]
    interleaved += [check[i] for i in range(ec) for check in checks]
    return version, interleaved


class _Matrix:
    """The modules of one symbol and which of them are function patterns."""

    def __init__(self, version: int) -> None:
        self.size = 17 + 4 * version
        self.dark = [[False] * self.size for _ in range(self.size)]
        self.fixed = [[False] * self.size for _ in range(self.size)]
        self._function_patterns(version)

    def put(self, x: int, y: int, dark: bool) -> None:
        self.dark[y][x] = dark
        self.fixed[y][x] = True

    def _function_patterns(self, version: int) -> None:
        size = self.size
        for i in range(size):
            self.put(6, i, i % 2 == 0)
            self.put(i, 6, i % 2 == 0)
        for cx, cy in ((3, 3), (size - 4, 3), (3, size - 4)):
            for dy in range(-4, 5):
                for dx in range(-4, 5):
                    x, y = cx + dx, cy + dy
                    if 0 <= x < size and 0 <= y < size:
                        ring = max(abs(dx), abs(dy))
                        self.put(x, y, ring not in (2, 4))
        if version > 1:
            centre = size - 7
            for dy in range(-2, 3):
                for dx in range(-2, 3):
                    self.put(centre + dx, centre + dy, max(abs(dx), abs(dy)) != 1)
        self.format_bits(0)  # reserve the format areas (and the dark module)

    def format_bits(self, mask: int) -> None:
        """Level M (00) and ``mask``, BCH-protected, in both copies."""
        data = mask  # level M is 00
        remainder = data
        for _ in range(10):
            remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537)
        bits = ((data << 10) | remainder) ^ 0x5412
        bit = [(bits >> i) & 1 == 1 for i in range(15)]
        size = self.size
        for i in range(6):
            self.put(8, i, bit[i])
        self.put(8, 7, bit[6])
        self.put(8, 8, bit[7])
        self.put(7, 8, bit[8])
        for i in range(9, 15):
            self.put(14 - i, 8, bit[i])
        for i in range(8):
            self.put(size - 1 - i, 8, bit[i])
        for i in range(8, 15):
            self.put(8, size - 15 + i, bit[i])
        self.put(8, size - 8, True)

    def place(self, codewords: list[int]) -> None:
        """The data bits in the zigzag of two-module columns, right to left."""
        bits = [(byte >> (7 - i)) & 1 == 1 for byte in codewords for i in range(8)]
        index = 0
        right = self.size - 1
        while right >= 1:
            if right == 6:
                right = 5
            for vertical in range(self.size):
                for column in (right, right - 1):
                    upward = (right + 1) & 2 == 0
                    y = self.size - 1 - vertical if upward else vertical
                    if not self.fixed[y][column]:
                        self.dark[y][column] = index < len(bits) and bits[index]
                        index += 1
            right -= 2

    def masked(self, mask: int) -> list[list[bool]]:
        rule = _MASKS[mask]
        self.format_bits(mask)
        return [
            [self.dark[y][x] != (not self.fixed[y][x] and rule(x, y)) for x in range(self.size)]
            for y in range(self.size)
        ]


def _penalty(modules: list[list[bool]]) -> int:
    """The spec's penalty (runs, 2x2 blocks, finder-like patterns, balance): lower is better."""
    size = len(modules)
    score = 0
    lines = modules + [list(column) for column in zip(*modules, strict=True)]
    for line in lines:
        run, previous = 0, None
        for module in line:
            run = run + 1 if module == previous else 1
            previous = module
            score += 3 if run == 5 else (1 if run > 5 else 0)
        text = "".join("1" if m else "0" for m in line)
        score += 40 * (text.count("10111010000") + text.count("00001011101"))
    for y in range(size - 1):
        for x in range(size - 1):
            block = {modules[y][x], modules[y][x + 1], modules[y + 1][x], modules[y + 1][x + 1]}
            score += 3 if len(block) == 1 else 0
    dark = sum(map(sum, modules))
    score += 10 * (abs(dark * 20 - size * size * 10) // (size * size))
    return score


def qr_modules(text: str) -> list[list[bool]]:
    """The QR symbol of ``text`` (UTF-8) as rows of modules, ``True`` dark, without the quiet
    zone; the mask with the lowest penalty, as the spec says."""
    version, codewords = _codewords(text.encode("utf-8"))
    matrix = _Matrix(version)
    matrix.place(codewords)
    return min((matrix.masked(mask) for mask in range(8)), key=_penalty)


def qr_svg(text: str, module: int = 8) -> str:
    """``text`` as a QR code in SVG: dark modules on white with the 4-module quiet zone."""
    modules = qr_modules(text)
    side = (len(modules) + 8) * module
    path = "".join(
        f"M{(x + 4) * module},{(y + 4) * module}h{module}v{module}h-{module}z"
        for y, row in enumerate(modules)
        for x, dark in enumerate(row)
        if dark
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side}" '
        f'width="{side}" height="{side}" shape-rendering="crispEdges">'
        f'<rect width="{side}" height="{side}" fill="#fff"/><path d="{path}" fill="#000"/></svg>'
    )
