"""Overhead camera -> board occupancy."""

#: The square readers a calibration can be made for: the colours learnt from its picture, or
#: the network learnt from rendered boards and adapted to this one (:mod:`vision.squares`).
READERS = ("colour", "learnt")
