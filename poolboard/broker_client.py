"""The MQTT client the hall, its tables and remote boards all use: MQTT 3.1.1, paho's version-2
callbacks, quick reconnects, optional TLS, and a bound on what waits while the broker is away;
and its connection to the broker, kept up and told in the log the same way for each of them."""

from __future__ import annotations

import logging
import ssl
import threading
from collections.abc import Callable
from typing import Protocol

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode


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
    any last will) before connecting (:class:`BrokerConnection` sets the connection's)."""
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


class BrokerLogin(Protocol):
    """What a table's or a remote board's link settings say of their broker and login."""

    broker: str
    port: int
    password: str
    tls: bool
    ca_file: str
    keepalive: int


def login_client(user: str, login: BrokerLogin, max_queued: int) -> mqtt.Client:
    """A client (:func:`new_client`) for ``user`` with ``login``'s password and TLS."""
    return new_client(
        user, login.password, tls=login.tls, ca_file=login.ca_file, max_queued=max_queued
    )


class BrokerConnection:
    """``client``'s connection to the broker at ``host``:``port``, kept up by paho (it retries
    every 1-4 s), with what every client of ours says about it in ``log`` (prefixed with the
    logger's last part: ``remote:``, ``hall:``): that it connected as ``who``, that the broker
    cannot be reached, refused it or was lost, each with ``meanwhile`` (what goes on without
    the broker). A refusal or an unreachable broker is said once until the client connects
    again, not at every retry.

    What is the client's own: ``on_up(client)`` on every (re)connect, before ``connected`` is
    set (subscribe, announce itself); ``on_change()`` once ``connected`` has been set or
    cleared (the link came up or went down; not for a refusal: it was never up). Both run on
    paho's thread. The caller sets ``on_message`` and any last will before :meth:`start`."""

    def __init__(
        self,
        client: mqtt.Client,
        host: str,
        port: int,
        keepalive: int,
        *,
        log: logging.Logger,
        who: str,
        meanwhile: str,
        on_up: Callable[[mqtt.Client], None],
        on_change: Callable[[], None] = lambda: None,
    ) -> None:
        self.client = client
        self.host, self.port, self.keepalive = host, port, keepalive
        self._where = f"{host}:{port}"
        self.connected = threading.Event()
        self._log = log
        self._area = log.name.rsplit(".", 1)[-1]
        self._who, self._meanwhile = who, meanwhile
        self._on_up, self._on_change = on_up, on_change
        self._trouble_said: str | None = None  # the trouble said since the client was last up
        self._stopping = False
        client.on_connect = self._on_connect
        client.on_connect_fail = self._on_connect_fail
        client.on_disconnect = self._on_disconnect

    @classmethod
    def to(
        cls,
        login: BrokerLogin,
        client: mqtt.Client,
        *,
        log: logging.Logger,
        who: str,
        meanwhile: str,
        on_up: Callable[[mqtt.Client], None],
        on_change: Callable[[], None] = lambda: None,
    ) -> BrokerConnection:
        """``client``'s connection to the broker ``login`` names."""
        return cls(
            client, login.broker, login.port, login.keepalive,
            log=log, who=who, meanwhile=meanwhile, on_up=on_up, on_change=on_change,
        )  # fmt: skip

    def start(self) -> None:
        """Connect in the background; paho retries while the broker is away or refuses."""
        self.client.connect_async(self.host, self.port, keepalive=self.keepalive)
        self.client.loop_start()

    def stop(self) -> None:
        """Disconnect for good (not said as a lost broker) and stop paho's thread."""
        self._stopping = True
        self.client.disconnect()
        self.client.loop_stop()

    def _say_once(self, trouble: str, level: int, text: str) -> None:
        """Say ``text`` unless ``trouble`` is what was said last since the client was up."""
        if self._trouble_said != trouble:
            self._trouble_said = trouble
            self._log.log(level, "%s: %s; %s; retrying", self._area, text, self._meanwhile)

    def _on_connect(
        self,
        client: mqtt.Client,
        _: object,
        __: mqtt.ConnectFlags,
        reason: ReasonCode,
        ___: Properties | None,
    ) -> None:
        if reason.is_failure:  # a name, password or ACL to fix: it will not pass by itself
            self._say_once(
                "refused", logging.ERROR, f"the broker {self._where} refused {self._who}: {reason}"
            )
            return
        self._trouble_said = None
        self._log.info("%s: connected to %s as %s", self._area, self._where, self._who)
        self._on_up(client)
        self.connected.set()
        self._on_change()

    def _on_connect_fail(self, _: mqtt.Client, __: object) -> None:
        self._say_once("unreachable", logging.WARNING, f"cannot reach the broker {self._where}")

    def _on_disconnect(
        self,
        _: mqtt.Client,
        __: object,
        ___: mqtt.DisconnectFlags,
        reason: ReasonCode,
        ____: Properties | None,
    ) -> None:
        if not self.connected.is_set():  # after a refusal: never up, nothing lost
            return
        self.connected.clear()
        self._on_change()
        if not self._stopping:
            self._log.warning(
                "%s: lost the broker %s (%s); %s; retrying",
                self._area,
                self._where,
                reason,
                self._meanwhile,
            )
