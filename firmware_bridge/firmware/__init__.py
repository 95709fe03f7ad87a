"""Pico firmware for the serial bridge; MicroPython code that also runs on CPython for tests."""
