"""The serial link to a scanning microcontroller: protocol, host driver, firmware, emulator."""
