"""The embedded default's broker (no ``REDIS_URL``): kombu's filesystem transport, with each
message written whole before any worker can see it.

kombu writes a message straight into its final name, so a worker polling the folder could take
the file before its bytes were in, read nothing, and stop for good ("Unrecoverable error:
JSONDecodeError"): the site went on answering while no phase, bot or deadline ever ran again.
Here a message is written under a name no queue reads and then renamed into place (a rename
within one folder is atomic), and a message that still cannot be read is logged and skipped,
never fatal: the sweep (``games.tasks``) processes whatever phase it was for.
"""

from __future__ import annotations

import logging
import os
import time
import uuid

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

log = logging.getLogger(__name__)


class Channel(filesystem.Channel):
    def _put(self, queue: str, payload: dict, **kwargs: object) -> None:
        """Write ``payload`` under a hidden name, then rename it into ``queue``."""
        name = f"{round(time.monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        folder = self.data_folder_out
        part = os.path.join(folder, f".{uuid.uuid4()}.part")  # no queue's name ends so
        try:
            with open(part, "wb") as f:
                f.write(str_to_bytes(dumps(payload)))
            os.replace(part, os.path.join(folder, name))
        except OSError as error:
            raise ChannelError(f"Cannot add file {name!r} to directory") from error

    def _get(self, queue: str) -> dict:
        """The next message of ``queue``; one that cannot be read is skipped, not fatal."""
        while True:
            try:
                return super()._get(queue)
            except ValueError as error:  # not JSON: written by another program, or cut short
                log.error("broker: an unreadable message in %s was skipped (%s)", queue, error)


class Transport(filesystem.Transport):
    Channel = Channel
