"""The MQTT client the hall, its tables and remote boards all use: MQTT 3.1.1, paho's version-2
callbacks, quick reconnects, optional TLS, and a bound on what waits while the broker is away."""

from __future__ import annotations

import ssl

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion


def new_client(
    user: str,
    password: str,
    *,
    tls: bool,
    ca_file: str,
    max_queued: int = 0,
    clean_session: bool = True,
) -> mqtt.Client:
    """A client logged in as ``user`` (an empty password: none) with ``user`` as its client
    id (the hall's broker forces that: no one can knock a client off by taking its id;
    docs/hall.md), trusting ``ca_file`` (empty: the system's CAs) when ``tls``; at most
    ``max_queued`` messages wait for the broker (0: no bound); ``clean_session=False`` asks
    the broker to keep its QoS 1 messages while it is away. The caller sets the callbacks (and
    any last will) before connecting."""
    client = mqtt.Client(
        CallbackAPIVersion.VERSION2,
        client_id=user,
        clean_session=clean_session,
        protocol=mqtt.MQTTv311,
    )
    client.username_pw_set(user, password or None)
    if tls:
        client.tls_set(ca_certs=ca_file or None, cert_reqs=ssl.CERT_REQUIRED)
    client.max_queued_messages_set(max_queued)
    client.reconnect_delay_set(min_delay=1, max_delay=4)
    return client
