"""The big screen's QR code, read back by a decoder we did not write (OpenCV's)."""

import re

import cv2
import numpy as np
import pytest

from poolboard.web.qr import qr_modules, qr_svg


@pytest.mark.parametrize(
    "text",
    [
        "http://192.168.1.23:8080/",  # version 2
        "http://raspberrypi.local:8080/?board=club-room-table-one",  # version 4: two blocks
        "http://10.0.0.5:8080/" + "a" * 80,  # version 6: four blocks
        "http://[fe80::1]:8080/é",  # UTF-8 bytes
    ],
)
def test_opencv_reads_back_the_address(text: str) -> None:
    modules = qr_modules(text)
    image = np.pad(np.where(modules, 0, 255).astype(np.uint8), 4, constant_values=255)
    image = cv2.resize(image, None, fx=8, fy=8, interpolation=cv2.INTER_NEAREST)
    decoded, _, _ = cv2.QRCodeDetectorAruco().detectAndDecode(image)
    assert decoded == text


def test_too_long_an_address_is_one_clear_error() -> None:
    with pytest.raises(ValueError, match="too long for a QR code"):
        qr_modules("x" * 200)


def test_the_svg_has_its_quiet_zone() -> None:
    svg = qr_svg("http://192.168.1.23:8080/", module=4)
    assert svg.startswith("<svg") and 'viewBox="0 0 132 132"' in svg  # (25 + 8) * 4


def test_opencv_reads_back_the_svg_the_page_shows() -> None:
    text = "http://192.168.1.23:8080/"
    svg = qr_svg(text, module=4)
    side = int(re.search(r'viewBox="0 0 (\d+) \d+"', svg).group(1))
    image = np.full((side, side), 255, np.uint8)
    for x, y in re.findall(r"M(\d+),(\d+)h4v4h-4z", svg):
        image[int(y) : int(y) + 4, int(x) : int(x) + 4] = 0
    image = cv2.resize(image, None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST)
    decoded, _, _ = cv2.QRCodeDetectorAruco().detectAndDecode(image)
    assert decoded == text
