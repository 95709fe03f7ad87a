"""The Raspberry Pi itself: GPIO reed-matrix scanning, LEDs, clock buttons."""
