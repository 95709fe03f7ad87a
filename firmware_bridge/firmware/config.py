"""The firmware's wiring and timing; edit here for another wiring (README.md has the pin map).

GP numbers are the Pico's GPIO numbers, not its physical pin numbers.
"""

# Matrix: one reed switch + diode per crossing (crossing = row * len(COLUMN_PINS) + column).
# 8 rows x 4 columns (one board row per matrix row) or 4 x 8 (two board rows per row) both work.
ROW_PINS = (2, 3, 4, 5, 6, 7, 8, 9)  # driven low one at a time
COLUMN_PINS = (10, 11, 12, 13)  # inputs with pull-ups; a closed switch reads low
LEVER_PINS = (14, 15)  # Black's, White's clock lever to GND; pressed reads low
LED_PIN = 16  # WS2812 data, through a 3.3 V -> 5 V level shifter

# Where the squares sit (firmware/layout.py; the same names as the Pi's board file):
ORIENTATION = "white"  # square n at crossing n - 1; "black": the grid wired from Black's side
SQUARE_MAP = None  # or 32 (row, column) pairs, square 1 first, for any other wiring
LAYOUT = "in-order"  # the LED strip row by row as White sees it; or "serpentine"
START = 1  # the square the strip begins at: 1 or 32
SQUARES = None  # or the strip index of each square 1-32 (then LAYOUT and START are unused)

SETTLE_US = 20  # after driving a row, before reading the columns
SCAN_PERIOD_MS = 5  # one full scan every 5 ms (200 scans a second)
DEBOUNCE_SCANS = 3  # a square or lever changes after this many equal consecutive scans
HEARTBEAT_MS = 250  # a state report at least this often: 12 in the host's 3 s silence timer
LED_REFRESH_MS = 20  # blink patterns are redrawn this often (only changed frames are sent)
BRIGHTNESS = 64  # 0-255, scales every colour: 34 LEDs at full white would draw about 2 A
WATCHDOG_MS = 2000  # the board resets if the main loop stalls this long (RP2040: at most 8388)
FAULT_HOLD_MS = 2000  # a diode fault stays reported until unseen this long
