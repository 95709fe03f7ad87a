"""The firmware's main loop: scan, report state, answer the host, draw the LEDs.

Everything hardware-specific goes through ``hal`` (hal_pico.PicoHal on the Pico, also under the
MicroPython unix port with firmware_bridge/pico_standin; hal_sim.SimHal on CPython), so this
exact code runs in every place. It never hangs: a report the host does not read is dropped (the
next one repairs it), the watchdog is fed every pass, and an exception resets the board.
"""

from . import config
from .layout import crossings, strip
from .leds import LedPicture
from .protocol import (
    ACK,
    ACK_BAD_LENGTH,
    ACK_BAD_VALUE,
    ACK_BAD_VERSION,
    ACK_OK,
    ACK_UNKNOWN_TYPE,
    ERROR,
    HELLO,
    HELLO_BOOT,
    HELLO_REPLY,
    HOST_HELLO,
    LAYOUT,
    LED_SET,
    LED_SLOTS,
    PROTOCOL_VERSION,
    SQUARE_LEDS,
    STATE_CHANGE,
    STATE_HEARTBEAT,
    STATE_LEVER,
    Deframer,
    FrameError,
    encode_frame,
    led_set_length_ok,
    led_set_values_ok,
    pack_ack,
    pack_error,
    pack_hello,
    pack_state,
    unpack_layout,
)
from .scanner import Scanner


class Firmware:
    """One boot of the board. ``run()`` loops forever; ``step()`` is one pass of that loop."""

    def __init__(self, hal, settings=config):
        self.hal = hal
        self.settings = settings
        self.scanner = Scanner(hal, settings.DEBOUNCE_SCANS, settings)
        self.picture = LedPicture(settings.BRIGHTNESS, strip(settings))
        self.deframer = Deframer()
        self.seq = 0
        self.boot_id = hal.boot_id()  # drawn at power-up: a host tells a restart by it
        self.occupancy = None
        self.fault = 0  # squares a diode fault touched within FAULT_HOLD_MS
        self.dropped = 0  # reports the host did not take in time (the next one repairs them)
        self._fault_seen = 0
        self.uptime_ms = 0
        self._last_tick = hal.ticks_ms()
        self._last_report = 0
        self._last_draw = None
        self._drawn = bytearray(3 * LED_SLOTS)  # r, g, b per LED, as the strip shows them
        self._drawing = bytearray(3 * LED_SLOTS)
        self._shown = False

    def send(self, kind, payload):
        """Frame and write one message; every message gets the next sequence number.

        A host that holds the port without reading must not stall the scan: when the port
        cannot take the frame now, it is dropped and counted (each report carries the whole
        state, so the next one repairs the loss).
        """
        if not self.hal.write(encode_frame(kind, self.seq, payload)):
            self.dropped += 1
        self.seq = (self.seq + 1) & 0xFF

    def boot(self):
        """Announce ourselves: a HELLO at power-up lets a listening host notice a reset."""
        self.send(HELLO, pack_hello(HELLO_BOOT, self.boot_id, self.hal.board_id()))
        self.draw(force=True)

    def report(self, kind):
        """Send the current state (occupancy, lever counters, uptime)."""
        black, white = self.scanner.presses
        occupancy = self.occupancy or 0
        state = pack_state(occupancy, black, white, self.uptime_ms, self.fault, self.boot_id)
        self.send(kind, state)
        self._last_report = self.uptime_ms

    def handle(self, kind, seq, payload):
        """Act on one message from the host; a malformed one gets a negative ACK, never silence."""
        if kind == HOST_HELLO:
            if len(payload) != 1:
                self.send(ACK, pack_ack(seq, ACK_BAD_LENGTH))
                return
            if payload[0] != PROTOCOL_VERSION:
                self.send(ACK, pack_ack(seq, ACK_BAD_VERSION))  # our HELLO names our version
            else:
                self.picture.linked = True
            self.send(HELLO, pack_hello(HELLO_REPLY, self.boot_id, self.hal.board_id()))
            if self.occupancy is not None and self.picture.linked:
                self.report(STATE_HEARTBEAT)
        elif kind == LED_SET:
            if not led_set_length_ok(payload):
                self.send(ACK, pack_ack(seq, ACK_BAD_LENGTH))
                return
            if not led_set_values_ok(payload):  # nothing of a refused frame is drawn
                self.send(ACK, pack_ack(seq, ACK_BAD_VALUE))
                return
            self.picture.linked = True
            self.picture.update(payload)  # absolute values: a retried frame changes nothing
            self.send(ACK, pack_ack(seq, ACK_OK))
            self.draw(force=True)
        elif kind == LAYOUT:
            self.take_layout(seq, payload)
        else:
            self.send(ACK, pack_ack(seq, ACK_UNKNOWN_TYPE))

    def take_layout(self, seq, payload):
        """The host's ORIENTATION / SQUARE_MAP / LAYOUT / START / SQUARES replace config.py's
        until the next reset; what has been read so far is translated, and reported at once."""
        try:  # all of it checked before anything changes
            layout = unpack_layout(payload)
            new_crossings = crossings(layout, self.hal.rows, self.hal.columns)
            new_strip = strip(layout)
        except FrameError:
            self.send(ACK, pack_ack(seq, ACK_BAD_LENGTH))
            return
        except ValueError:
            self.send(ACK, pack_ack(seq, ACK_BAD_VALUE))
            return
        translate = self.scanner.remap(new_crossings)
        if self.occupancy is not None:
            self.occupancy = translate(self.occupancy)
        self.fault = translate(self.fault)
        self.picture.leds = new_strip + [SQUARE_LEDS, SQUARE_LEDS + 1]
        self.send(ACK, pack_ack(seq, ACK_OK))
        if self.occupancy is not None:
            self.report(STATE_CHANGE)
        self.draw(force=True)

    def draw(self, force=False):
        """Push the LED picture to the chain if it looks different now."""
        t = self.uptime_ms
        last = self._last_draw
        if not force and last is not None and t - last < self.settings.LED_REFRESH_MS:
            return
        self._last_draw = t
        self.picture.draw(self._drawing, t)
        if not self._shown or self._drawing != self._drawn:  # only changed frames are sent
            self.hal.write_leds(self._drawing)
            self._drawn, self._drawing = self._drawing, self._drawn
            self._shown = True

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
        scanner = self.scanner
        scanner.scan()
        occupancy, pressed = scanner.squares.settled, scanner.pressed
        fault_changed = self._track_fault(self.scanner.fault)
        if occupancy is not None and (occupancy != self.occupancy or fault_changed):
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

    def _track_fault(self, seen):
        """Latch diode faults for FAULT_HOLD_MS; True when the reported set of squares changed."""
        now = self.uptime_ms
        if seen:
            self._fault_seen = now
            latched = self.fault | seen
        elif self.fault and now - self._fault_seen >= self.settings.FAULT_HOLD_MS:
            latched = 0
        else:
            return False
        changed = latched != self.fault
        self.fault = latched
        return changed

    def run(self, running=None):
        """Boot, then step every SCAN_PERIOD_MS until ``running()`` says stop (never on a Pico).

        The watchdog is fed once a pass: a pass that stalls for WATCHDOG_MS resets the board.
        """
        hal = self.hal
        period = self.settings.SCAN_PERIOD_MS
        self.boot()
        while running is None or running():
            start = hal.ticks_ms()
            hal.feed_watchdog()
            self.step()
            spent = hal.ticks_diff(hal.ticks_ms(), start)
            if spent < period:
                hal.sleep_ms(period - spent)


def run_or_reset(hal, settings=config):
    """Run the firmware for good; should it ever raise, tell the host why, then reset the board."""
    firmware = Firmware(hal, settings)
    try:
        firmware.run()
    except Exception as error:  # anything at all: a hung or dead board is worse than a reset
        try:  # noqa: SIM105 - MicroPython has no contextlib
            firmware.send(ERROR, pack_error(type(error).__name__ + ": " + str(error)))
        except Exception:  # the port itself may be what failed
            pass
    hal.reset()
