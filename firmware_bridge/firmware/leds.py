"""The LED picture the host set, drawn with its blink patterns at a given time."""

from .protocol import BLINK_FAST, BLINK_SLOW, LED_ENTRY, LED_SLOTS, SQUARE_LEDS

DARK = (0, 0, 0, 0)
WAITING = (0, 0, 255, BLINK_SLOW)  # status LED 1 while no host has said HELLO


def is_on(blink, t_ms):
    """Whether a light with this blink code is on at ``t_ms`` (slow 1 Hz, fast 4 Hz, half on)."""
    if blink == BLINK_SLOW:
        return t_ms % 1000 < 500
    if blink == BLINK_FAST:
        return t_ms % 250 < 125
    return True


class LedPicture:
    """``LED_SLOTS`` entries ``(r, g, b, blink)``: squares 1-32, then the 2 status LEDs; ``leds``
    says where each sits on the strip (firmware/layout.py), the status LEDs last.

    Until a host has linked, status LED 1 blinks blue so a person sees the board waits for it.
    """

    def __init__(self, brightness, square_leds):
        self.brightness = brightness
        self.entries = [DARK] * LED_SLOTS
        self.linked = False
        self.leds = list(square_leds) + [SQUARE_LEDS, SQUARE_LEDS + 1]  # strip index of each slot

    def update(self, payload):
        """Set the LEDs an LED_SET payload names (``slot, r, g, b, blink`` each), the rest kept."""
        entries = self.entries
        for at in range(0, len(payload), LED_ENTRY):
            entries[payload[at]] = tuple(payload[at + 1 : at + LED_ENTRY])

    def draw(self, rgb, t_ms):
        """Write the colours to send down the chain at ``t_ms``, scaled by the brightness, into
        ``rgb`` (a bytearray of 3 x LED_SLOTS: r, g, b per LED); allocates nothing."""
        scale = self.brightness
        entries = self.entries
        leds = self.leds
        for index in range(LED_SLOTS):
            entry = WAITING if index == SQUARE_LEDS and not self.linked else entries[index]
            on = is_on(entry[3], t_ms)
            at = 3 * leds[index]
            for channel in range(3):
                rgb[at + channel] = entry[channel] * scale // 255 if on else 0
