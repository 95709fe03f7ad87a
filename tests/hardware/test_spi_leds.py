"""WS2812 over SPI: frames decoded back from the SPI waveform by the simulated spidev."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cues import CUE_STYLES, CueKind, Cues
from engine.sensing import CueDisplay
from hardware import ws2812
from hardware.sim_spidev import SimSpiDev, WaveformError
from hardware.spi_leds import LedLayout, SpiCueDisplay, square_order
from tests.patience import wait_for

colour = st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255))


def sent(colours: list[tuple[int, int, int]], hz: int = ws2812.SPI_HZ) -> SimSpiDev:
    spi = SimSpiDev(leds=len(colours))
    spi.open(0, 0)
    spi.max_speed_hz = hz
    spi.writebytes2(ws2812.encode(colours))
    return spi


@given(st.lists(colour, min_size=1, max_size=40))
def test_encoded_frames_decode_to_the_same_colours(colours) -> None:
    assert sent(colours).frames == [colours]


@pytest.mark.parametrize("hz", [6_250_000, 6_400_000])
def test_frames_survive_the_clock_a_pi_rounds_to(hz: int) -> None:
    """6.4 MHz asked for; both a Pi 4 (500 MHz core / 80) and a Pi 5 (RP1's 200 MHz / 32) give
    6.25 MHz, an even divider being the nearest they allow."""
    colours = [(1, 2, 3), (255, 128, 0)]
    assert sent(colours, hz).frames == [colours]


def test_the_waveform_is_checked_not_just_the_bytes() -> None:
    with pytest.raises(WaveformError, match="neither a WS2812 0 nor 1"):
        sent([(255, 0, 0)], hz=ws2812.SPI_HZ // 2)  # half the clock: every pulse twice as long


def test_green_goes_first_on_the_wire() -> None:
    data = ws2812.encode([(0xFF, 0x00, 0x01)])[len(ws2812.RESET) :]
    assert data[:8] == bytes([ws2812.ZERO] * 8)  # green 0x00
    assert data[8:16] == bytes([ws2812.ONE] * 8)  # red 0xFF
    assert data[16:24] == bytes([ws2812.ZERO] * 7 + [ws2812.ONE])  # blue 0x01


def display(layout: LedLayout | None = None) -> tuple[SpiCueDisplay, SimSpiDev]:
    spi = SimSpiDev()
    return SpiCueDisplay(layout or LedLayout(brightness=1.0), spi=spi, refresh_hz=0), spi


def test_cues_light_their_squares_with_their_style() -> None:
    shown, spi = display()
    assert isinstance(shown, CueDisplay)
    assert spi.opened == (0, 0) and spi.max_speed_hz == 6_400_000
    shown.show(Cues({9: CueKind.MOVE_FROM, 14: CueKind.MOVE_TO}))
    frame = spi.frames[-1]
    assert frame[8] == CUE_STYLES[CueKind.MOVE_FROM].rgb
    assert frame[13] == CUE_STYLES[CueKind.MOVE_TO].rgb
    assert sum(1 for rgb in frame if rgb != (0, 0, 0)) == 2


def test_blinking_cues_follow_their_pattern() -> None:
    shown, spi = display()
    shown.show(Cues({5: CueKind.ERROR}))  # fast blink: on for the first half of each 0.25 s
    shown.render(1.0)
    assert spi.frames[-1][4] == (255, 0, 0)
    shown.render(1.2)
    assert spi.frames[-1][4] == (0, 0, 0)
    count = len(spi.frames)
    shown.render(1.21)  # same picture: nothing is sent
    assert len(spi.frames) == count


def test_brightness_layout_and_status_leds() -> None:
    layout = LedLayout.from_mapping(
        {"layout": "serpentine", "status": {"link": 32}, "brightness": 0.5}
    )
    assert layout.count == 33
    shown, spi = display(layout)
    shown.show(Cues({5: CueKind.CONFIRM}))  # row 1 runs right to left: square 5 is LED 7
    shown.set_status("link", (0, 0, 200))
    assert spi.frames[-1][7] == (0, 128, 0)
    assert spi.frames[-1][32] == (0, 0, 100)
    with pytest.raises(KeyError, match="no status LED 'clock'"):
        shown.set_status("clock", (1, 1, 1))
    shown.close()
    assert set(spi.frames[-1][:33]) == {(0, 0, 0)} and spi.opened is None


def test_square_orders() -> None:
    assert square_order("in-order", 1)[:5] == [0, 1, 2, 3, 4]
    assert square_order("serpentine", 1)[4:8] == [7, 6, 5, 4]
    assert square_order("in-order", 32)[31] == 0


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"layout": "zigzag"}, r"leds\.layout: expected one of in-order, serpentine"),
        ({"squares": [0] * 31}, r"leds\.squares: expected 32 LED indices"),
        ({"squares": [0] * 32}, r"leds\.squares\[1\]: LED 0 is already leds\.squares\[0\]"),
        ({"status": {"link": 3}}, r"leds\.status\.link: LED 3 is already leds\.squares\[3\]"),
        ({"count": 10}, r"leds\.count: expected a whole number 32-9999"),
        ({"brightness": 2}, r"leds\.brightness: expected a number 0-1"),
        ({"start": 5}, r"leds\.start: expected 1 or 32"),
        ({"bright": 1}, r"leds: unknown key 'bright'"),
    ],
)
def test_bad_led_tables_name_the_key(table, message) -> None:
    with pytest.raises(ValueError, match=message):
        LedLayout.from_mapping(table)


def test_the_refresh_thread_keeps_cues_blinking() -> None:
    spi = SimSpiDev()
    with SpiCueDisplay(LedLayout(brightness=1.0), spi=spi, refresh_hz=50) as shown:
        shown.show(Cues({1: CueKind.TOUCH_MOVE}))
        wait_for(
            lambda: {(255, 0, 255), (0, 0, 0)} <= {frame[0] for frame in list(spi.frames)},
            "the square on 1 blinking",
        )
