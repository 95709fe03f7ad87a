"""poolboard's pure game logic: no I/O, imports nothing of the other packages."""
