"""MicroPython stand-ins for a Pico's ``machine`` and ``neopixel``, to run the real firmware on the unix port."""
