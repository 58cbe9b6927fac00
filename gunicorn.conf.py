"""gunicorn's settings (it reads this file from its working directory by itself).

Its own lines (start-up, worker timeouts and crashes) go to stdout as JSON lines, like the
application's (``greatgame.logs``), for one log shipper to read. Requests are logged by the
application, with their request id, so gunicorn's access log stays off.

Workers are threaded (gthread): a live event stream (``games.events``) holds one thread for a
few minutes at most, never a whole worker, and at most half of a worker's threads hold
streams, so pages and the API always have threads left. With one thread a worker
(``GUNICORN_THREADS=1``: docker-compose's ``web``, the pool for pages and the API) no stream is
served, a page refused one polls, and the proxy sends streams to a pool of many threads
(``live``): on two cores one thread a worker, with connections kept open, served the most
order submissions (docs/benchmarks.md, round 33), as threads in one process share one
interpreter lock.
"""

import gc
import os
import signal

from gunicorn.glogging import Logger

bind = "0.0.0.0:8000"
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "16"))
# A stream would hold a one-thread worker's only thread for minutes: none there, whatever the
# environment shared with the streams' pool says.
if threads > 1:
    os.environ.setdefault("LIVE_STREAMS_PER_PROCESS", str(max(1, threads // 2)))
else:
    os.environ["LIVE_STREAMS_PER_PROCESS"] = "0"
# Connections are kept open between requests for longer than the proxy keeps its idle ones
# (nginx: 60 s), so the proxy never sends a request on a connection gunicorn is closing.
keepalive = int(os.environ.get("GUNICORN_KEEPALIVE", "75"))
# At most this many connections a worker: a worker takes whichever connection it accepts first,
# and a cap of a few more than its share spreads them over the workers (README "Production").
worker_connections = int(os.environ.get("GUNICORN_WORKER_CONNECTIONS", "1000"))
accesslog = None
# No control socket: gunicorn 25.1 and later open one for its ``gunicornc`` tool by default, in
# $HOME/.gunicorn unless XDG_RUNTIME_DIR is set, which nothing here uses, and two servers run by
# one account (a bench beside ``make run``) would take the same path. Older releases skip it.
control_socket_disable = True
errorlog = "-"
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "root": {"level": "INFO", "handlers": ["stdout"]},
    "loggers": {
        "gunicorn.error": {"level": "INFO", "handlers": ["stdout"], "propagate": False},
        "gunicorn.access": {"level": "WARNING", "handlers": [], "propagate": False},
    },
    "handlers": {
        "stdout": {
            "class": "logging.StreamHandler",
            "formatter": "json",
            "stream": "ext://sys.stdout",
        }
    },
    "formatters": {"json": {"()": "greatgame.logs.JsonFormatter"}},
}


class ApplicationLogsRequests(Logger):
    """gunicorn's logger without its access log. Given a logging configuration, gunicorn builds
    every request's access-log fields (a dict of all headers and the environ) even when the
    access logger writes nowhere: 10 to 20 microseconds of a worker's CPU a request, for a
    line nobody reads (the application logs each request itself, ``greatgame.logs``). So an
    ``--access-logfile`` is ignored, and so is ``--statsd-host`` (gunicorn takes its statsd
    logger only in place of its default one)."""

    def access(self, resp, req, environ, request_time) -> None:
        return None


logger_class = ApplicationLogsRequests


def post_worker_init(worker) -> None:
    """What the worker loaded (Django and the application's modules, some 85,000 objects;
    the URL patterns and the maps come with the first requests) is kept out of the garbage
    collector's full passes (``gc.freeze``): in a process that had served requests, looking
    through everything stalled a request for about 90 ms every few thousand requests.

    A worker told to stop gracefully (SIGTERM: a reload's HUP, a deploy) also ends its live
    event streams within a heartbeat (``games.events.stop_streams``): a stream never ends by
    itself before ``LIVE_MAX_SECONDS``, so the worker waited out its graceful timeout and was
    then killed as timed out, a minute after the reload, its streams cut only then."""
    from games import events  # the application is loaded by now

    graceful = worker.handle_exit

    def handle_exit(sig, frame) -> None:
        events.stop_streams()
        graceful(sig, frame)

    signal.signal(signal.SIGTERM, handle_exit)
    signal.siginterrupt(signal.SIGTERM, False)  # as gunicorn's own: requests go on
    gc.collect()
    gc.freeze()
