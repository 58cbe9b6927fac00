"""The embedded broker (``greatgame.broker``): a worker never reads a message before it is
whole, and an unreadable one never stops it. kombu's own filesystem transport let a worker
take a message file while it was still being written, and the worker stopped for good."""

from __future__ import annotations

import pytest
from kombu import Connection
from kombu.transport import filesystem

from greatgame import broker

PAYLOAD = {"body": "x" * 2_000}


def _connection(tmp_path, transport) -> Connection:
    folder = str(tmp_path / "queue")
    (tmp_path / "queue").mkdir(exist_ok=True)
    (tmp_path / "control").mkdir(exist_ok=True)
    options = {"data_folder_in": folder, "data_folder_out": folder}
    options["control_folder"] = str(tmp_path / "control")
    return Connection(transport=transport, transport_options=options)


@pytest.mark.parametrize("transport", [broker.Transport, filesystem.Transport])
def test_a_message_is_never_read_half_written(tmp_path, monkeypatch, transport) -> None:
    """A worker polls while a message is being written (here: at the moment its bytes are
    about to go in). kombu's own transport lets it take the empty file: the message is lost
    and the worker's read fails (which stopped it for good); ours shows it only once whole."""
    seen: list[object] = []
    with _connection(tmp_path, transport) as writer, _connection(tmp_path, transport) as worker:
        real = filesystem.str_to_bytes

        def bytes_then_poll(text: str) -> bytes:
            try:
                seen.append(worker.default_channel._get("jobs"))
            except filesystem.Empty:
                seen.append("nothing yet")
            except ValueError as error:
                seen.append(error)
            return real(text)

        monkeypatch.setattr(filesystem, "str_to_bytes", bytes_then_poll)
        monkeypatch.setattr(broker, "str_to_bytes", bytes_then_poll)
        writer.default_channel._put("jobs", PAYLOAD)
        monkeypatch.undo()
        if transport is filesystem.Transport:  # the failure this module exists for
            assert len(seen) == 1 and isinstance(seen[0], ValueError)
            return
        assert seen == ["nothing yet"]
        assert worker.default_channel._get("jobs") == PAYLOAD


def test_an_unreadable_message_is_skipped_not_fatal(tmp_path, caplog) -> None:
    with _connection(tmp_path, broker.Transport) as conn:
        channel = conn.default_channel
        (tmp_path / "queue" / "1_bad.jobs.msg").write_bytes(b"")  # another program's, or cut
        channel._put("jobs", {"n": 1})
        assert channel._get("jobs") == {"n": 1}
        with pytest.raises(filesystem.Empty):
            channel._get("jobs")
    assert "unreadable message in jobs was skipped" in caplog.text


def test_the_embedded_default_uses_it(settings) -> None:
    from greatgame.celery import app

    if settings.CELERY_BROKER_URL.startswith("filesystem"):
        assert app.conf.broker_transport == "greatgame.broker:Transport"
        assert isinstance(app.connection_for_write().transport, broker.Transport)
