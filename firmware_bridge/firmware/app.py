"""The firmware's main loop: scan, report state, answer the host, draw the LEDs.

Everything hardware-specific goes through ``hal`` (hal_pico.PicoHal on the Pico, hal_sim.SimHal
in tests and the emulator), so this exact code runs in both places.
"""

from . import config
from .leds import LedPicture
from .protocol import (
    ACK,
    ACK_BAD_LENGTH,
    ACK_OK,
    ACK_UNKNOWN_TYPE,
    HELLO,
    HELLO_BOOT,
    HELLO_REPLY,
    HOST_HELLO,
    LED_FRAME,
    LED_FRAME_LENGTH,
    STATE_CHANGE,
    STATE_HEARTBEAT,
    STATE_LEVER,
    Deframer,
    encode_frame,
    pack_ack,
    pack_hello,
    pack_state,
    unpack_leds,
)
from .scanner import Scanner


class Firmware:
    """One boot of the board. ``run()`` loops forever; ``step()`` is one pass of that loop."""

    def __init__(self, hal, settings=config):
        self.hal = hal
        self.settings = settings
        self.scanner = Scanner(hal, settings.DEBOUNCE_SCANS)
        self.picture = LedPicture(settings.BRIGHTNESS)
        self.deframer = Deframer()
        self.seq = 0
        self.occupancy = None
        self.uptime_ms = 0
        self._last_tick = hal.ticks_ms()
        self._last_report = 0
        self._last_draw = None
        self._last_pixels = None

    def send(self, kind, payload):
        """Frame and write one message; every message gets the next sequence number."""
        self.hal.write(encode_frame(kind, self.seq, payload))
        self.seq = (self.seq + 1) & 0xFF

    def boot(self):
        """Announce ourselves: a HELLO at power-up lets a listening host notice a reset."""
        self.send(HELLO, pack_hello(HELLO_BOOT, self.hal.board_id()))
        self.draw(force=True)

    def report(self, kind):
        """Send the current state (occupancy, lever counters, uptime)."""
        black, white = self.scanner.presses
        self.send(kind, pack_state(self.occupancy or 0, black, white, self.uptime_ms))
        self._last_report = self.uptime_ms

    def handle(self, kind, seq, payload):
        """Act on one message from the host."""
        if kind == HOST_HELLO:
            self.picture.linked = True
            self.send(HELLO, pack_hello(HELLO_REPLY, self.hal.board_id()))
            if self.occupancy is not None:
                self.report(STATE_HEARTBEAT)
        elif kind == LED_FRAME:
            if len(payload) != LED_FRAME_LENGTH:
                self.send(ACK, pack_ack(seq, ACK_BAD_LENGTH))
                return
            self.picture.linked = True
            self.picture.set(unpack_leds(payload))
            self.send(ACK, pack_ack(seq, ACK_OK))
            self.draw(force=True)
        else:
            self.send(ACK, pack_ack(seq, ACK_UNKNOWN_TYPE))

    def draw(self, force=False):
        """Push the LED picture to the chain if it looks different now."""
        t = self.uptime_ms
        last = self._last_draw
        if not force and last is not None and t - last < self.settings.LED_REFRESH_MS:
            return
        self._last_draw = t
        pixels = self.picture.pixels(t)
        if pixels != self._last_pixels:
            self.hal.write_leds(pixels)
            self._last_pixels = pixels

    def step(self):
        """Read the host, scan once, report what changed or a heartbeat, redraw the LEDs."""
        hal = self.hal
        now = hal.ticks_ms()
        self.uptime_ms += hal.ticks_diff(now, self._last_tick)
        self._last_tick = now
        data = hal.read()
        if data:
            for kind, seq, payload in self.deframer.feed(data):
                self.handle(kind, seq, payload)
        occupancy, pressed = self.scanner.scan()
        if occupancy is not None and occupancy != self.occupancy:
            self.occupancy = occupancy
            self.report(STATE_CHANGE)
        elif pressed:
            self.report(STATE_LEVER)
        elif (
            self.occupancy is not None
            and self.uptime_ms - self._last_report >= self.settings.HEARTBEAT_MS
        ):
            self.report(STATE_HEARTBEAT)
        self.draw()

    def run(self, running=None):
        """Boot, then step every SCAN_PERIOD_MS until ``running()`` says stop (never on a Pico)."""
        hal = self.hal
        period = self.settings.SCAN_PERIOD_MS
        self.boot()
        while running is None or running():
            start = hal.ticks_ms()
            self.step()
            spent = hal.ticks_diff(hal.ticks_ms(), start)
            if spent < period:
                hal.sleep_ms(period - spent)
