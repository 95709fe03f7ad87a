"""``poolboard hall``: the broker (unless an existing one is used), the monitor, the feed and
the pages, run until SIGTERM or SIGINT."""

from __future__ import annotations

import contextlib
import functools
import logging
import signal
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from poolboard.hall.broadcast import Broadcast
from poolboard.hall.broker import Broker, BrokerTls, write_broker_config
from poolboard.hall.event import EventStore
from poolboard.hall.monitor import HallMonitor
from poolboard.hall.settings import HallConfig
from poolboard.hall.topics import HALL_USER
from poolboard.hall.web import create_hall_app
from poolboard.web.app import AppServer

log = logging.getLogger("poolboard.hall")


def broker_files(config: HallConfig, directory: Path) -> Path:
    """Write the broker's config, password file and ACL for ``config``; the config's path."""
    broker = config.broker
    tls = BrokerTls(broker.certfile, broker.keyfile, broker.ca_file) if broker.certfile else None
    users = {HALL_USER: broker.hall_password}
    users.update({table.name: table.password for table in config.tables})
    return write_broker_config(directory, host=broker.host, port=broker.port, users=users, tls=tls)


def serve_hall(
    config: HallConfig,
    *,
    announce: Callable[[str], None] = print,
    stop: threading.Event | None = None,
    helpers: Sequence[Callable[[str, threading.Event], None]] = (),
) -> int:
    """Run the hall until ``stop`` is set or a signal arrives; the exit status. Whatever
    fails on the way (the broker, the web port), what was started is stopped. ``helpers``
    (the demo's tables) run in threads once the pages are up, with their address, until the
    hall stops."""
    stop = stop or threading.Event()
    if threading.current_thread() is threading.main_thread():
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: stop.set())
    data = config.data_dir
    data.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as cleanup:
        if config.broker.manage:
            conf = broker_files(config, data / "broker")
            broker = Broker(conf, config.broker.host, config.broker.port, data / "broker" / "log")
            broker.start()
            cleanup.callback(broker.stop)
            announce(f"poolboard hall: mosquitto on {config.broker.host}:{config.broker.port}")
            _in_thread(cleanup, broker.supervise, "broker")
        event = EventStore(data / "hall.sqlite3", config.table_names, config.event.games_per_match)
        cleanup.callback(event.close)
        monitor = HallMonitor(config, event)
        folder = Path(config.broadcast.folder).expanduser() if config.broadcast.folder else None
        broadcast = Broadcast(monitor, delay=config.broadcast.delay_seconds, folder=folder)
        broadcast.start()
        cleanup.callback(broadcast.stop)
        _in_thread(cleanup, broadcast.run, "feed")
        monitor.start()
        cleanup.callback(monitor.stop)  # before the broker goes: a goodbye, not a lost link
        server = AppServer(create_hall_app(monitor, broadcast), config.hall.host, config.hall.port)
        url = server.start()
        cleanup.callback(server.stop)
        announce(
            f"poolboard hall: pages on {url}/ (hall /, big screen /big, standings /standings, "
            "director /director, feed /broadcast/)"
        )
        for index, helper in enumerate(helpers):
            _in_thread(cleanup, functools.partial(helper, url), f"helper-{index}")
        while server.is_running and not stop.wait(0.5):
            pass
    log.info("hall stopped")
    return 0


def _in_thread(
    cleanup: contextlib.ExitStack, task: Callable[[threading.Event], None], name: str
) -> None:
    """Run ``task(finish)`` in a thread; at clean-up, set ``finish`` and wait for it."""
    finish = threading.Event()
    thread = threading.Thread(target=task, args=(finish,), name=name, daemon=True)
    thread.start()

    def end() -> None:
        finish.set()
        thread.join(timeout=10)

    cleanup.callback(end)
