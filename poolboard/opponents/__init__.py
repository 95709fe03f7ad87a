"""Opponents beyond the table: the other side of the game is played elsewhere."""
