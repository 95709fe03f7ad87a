"""The tournament hall: tables publish to a Mosquitto broker, one hall watches them all.

``topics`` is the wire protocol (docs/hall.md) and ``messages`` its typed schema, ``table`` the
publisher inside ``poolboard run``, ``broker`` the Mosquitto configuration and process, the rest
the ``poolboard hall`` program.
"""
