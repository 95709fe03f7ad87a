"""A QR code for the phone address on the big screen, as SVG.

segno encodes it (byte mode, error correction level M, no higher level chosen for spare room);
this module only draws its modules. Versions 1 to 6 (up to 106 bytes: any LAN address), so the
code stays coarse enough to scan from across a room.
"""

from __future__ import annotations

import segno

#: The largest symbol drawn: 41 x 41 modules, 106 bytes at level M.
MAX_VERSION = 6


def qr_modules(text: str) -> list[list[bool]]:
    """The QR symbol of ``text`` (UTF-8) as rows of modules, ``True`` dark, without the quiet
    zone.

    >>> len(qr_modules("http://192.168.1.23:8080/"))  # version 2
    25
    """
    data = text.encode("utf-8")
    try:
        code = segno.make_qr(data, error="m", boost_error=False, version=None)
    except segno.DataOverflowError:
        code = None
    if code is None or int(code.version) > MAX_VERSION:
        raise ValueError(
            f"the address is too long for a QR code on the screen: {len(data)} bytes, at most 106"
        )
    return [[bool(dark) for dark in row] for row in code.matrix_iter(scale=1, border=0)]


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
