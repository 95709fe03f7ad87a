"""Overhead camera -> board occupancy."""
