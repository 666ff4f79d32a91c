"""What keeps the server's event loop free: the collector (rulebook.web.collector), quiet logs."""

from __future__ import annotations

import gc

import pytest

from rulebook.web import collector


def test_settle_freezes_what_is_loaded_and_spaces_out_full_collections() -> None:
    before = gc.get_threshold()
    try:
        collector.settle()
        assert gc.get_freeze_count() > 10_000  # the imported modules, out of every collection
        young, middle, full = gc.get_threshold()
        assert (young, middle, full) == (collector.YOUNG, collector.MIDDLE, collector.FULL_EVERY)
        assert young > 50 * before[0]  # young collections rarer than Python's by far
        # full ones after as many objects allocated as with Python's young collections and
        # 1,000 middle ones between two full ones (100 times Python's)
        assert young * middle * full >= before[0] * before[1] * 1000
        # cyclic garbage is still collected by the young collections
        cycle: list[object] = []
        cycle.append(cycle)
        del cycle
        assert gc.collect(1) >= 1
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_serve_settles_the_collector_before_it_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    from rulebook.web import server
    from rulebook.web.settings import Settings

    calls: list[str] = []
    monkeypatch.setattr(collector, "settle", lambda: calls.append("settle"))

    class Stub:
        def __init__(self, config: object) -> None:
            pass

        def run(self) -> None:
            calls.append("run")

    monkeypatch.setattr(server.uvicorn, "Server", Stub)
    monkeypatch.setattr(server.uvicorn, "Config", lambda app, **kwargs: None)  # logs untouched
    monkeypatch.setattr(server, "_log_off_the_loop", lambda: [])
    server.serve(Settings(db_url="sqlite://"), "127.0.0.1", 0)
    assert calls == ["settle", "run"]


def test_websocket_connection_lines_are_access_log_lines() -> None:
    import logging
    import logging.config

    from rulebook.web.server import log_config

    def record(msg: str, *args: object) -> logging.LogRecord:
        return logging.LogRecord("uvicorn.error", logging.INFO, "x", 1, msg, args, None)

    accepted = record('%s - "WebSocket %s" [accepted]', "127.0.0.1:5", "/api/games/x/live")
    started = record("Application startup complete.")
    logger = logging.getLogger("uvicorn.error")
    saved = logger.filters[:]
    try:
        logger.filters[:] = []  # a process configures its logs once
        logging.config.dictConfig(log_config(access_log=False))
        assert not logger.filter(accepted) and logger.filter(started)
        logger.filters[:] = []
        logging.config.dictConfig(log_config(access_log=True))
        assert logger.filter(accepted) and logger.filter(started)
    finally:
        logger.filters[:] = saved
