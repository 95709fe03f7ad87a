"""Stand-ins for a Pico's machine and neopixel modules: the firmware on MicroPython's unix port."""
