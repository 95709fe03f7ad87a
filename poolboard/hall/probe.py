"""Can this table reach its hall? The broker answers, takes the table's name and password, and
its ACL lets the table write its own topics (``poolboard doctor``; docs/hall.md)."""

from __future__ import annotations

import ssl
import threading
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from poolboard.hall import topics
from poolboard.hall.link import HallLinkConfig


def probe_hall(link: HallLinkConfig, timeout: float = 5.0) -> tuple[bool, str]:
    """Connect to ``link``'s broker as its table and publish a reply to no action (the hall
    ignores it); ``(ok, what happened)`` in words. MQTT 5, so the broker says whether its ACL
    took the message (3.1.1 drops a refused one silently). The broker ties a connection to the
    table's name: a running table with this name is knocked off for a moment (it reconnects),
    so ``poolboard doctor`` does not call this while the table runs."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=link.table, protocol=mqtt.MQTTv5)
    client.username_pw_set(link.table, link.password or None)
    if link.tls:
        client.tls_set(ca_certs=link.ca_file or None, cert_reqs=ssl.CERT_REQUIRED)
    done = threading.Event()
    outcome: dict[str, Any] = {}
    reply = {"v": topics.PROTOCOL_VERSION, "table": link.table, "id": "doctor", "ok": True}

    def on_connect(client: mqtt.Client, _: Any, __: Any, reason: Any, ___: Any) -> None:
        if reason.is_failure:
            outcome["refused"] = str(reason)
            done.set()
            return
        client.publish(topics.topic(link.table, topics.REPLY), topics.encode(reply), qos=1)

    def on_publish(_: mqtt.Client, __: Any, ___: int, reason: Any, ____: Any) -> None:
        outcome["taken"] = not reason.is_failure
        outcome["why"] = str(reason)
        done.set()

    client.on_connect = on_connect
    client.on_publish = on_publish
    where = f"{link.broker}:{link.port}"
    try:
        client.connect_async(link.broker, link.port, keepalive=link.keepalive)
        client.loop_start()
        answered = done.wait(timeout)
    except (OSError, ValueError) as error:
        return False, f"{where}: {error}"
    finally:
        client.disconnect()
        client.loop_stop()
    if not answered:
        return False, f"{where}: no answer within {timeout:g} s (is the hall running? a firewall?)"
    if "refused" in outcome:
        return False, (
            f"{where} refused table {link.table!r}: {outcome['refused']} (check [hall] table and "
            "password against the hall's [[tables]])"
        )
    if not outcome["taken"]:
        return False, (
            f"{where}: the broker's ACL does not let {link.table!r} write its topics "
            f"({outcome['why']}; a broker config not written by poolboard hall?)"
        )
    return True, f"{where}: table {link.table!r} logged in; the ACL lets it write its topics"
