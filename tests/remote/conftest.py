"""Remote games run over the hall's real Mosquitto (users t1, t2, t3; the hall's ACL)."""

from tests.hall.conftest import broker  # noqa: F401 (a fixture, used by name)
