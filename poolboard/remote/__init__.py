"""Remote play: one game between two boards far apart, through an MQTT broker (docs/remote.md).

- :mod:`.protocol`: invite codes, topics and signed messages;
- :mod:`.settings`: a board's ``[remote]`` section;
- :mod:`.rewind`: a record rewound by its own board's user (a takeback, a correction, a void);
- :mod:`.link`: this board's end of the game, mirroring its record and checking the other's;
- :mod:`.opponent`: the far player as this board's ``[opponent]``;
- :mod:`.inputs`: what the far board's news becomes on the session core's queue.
"""
