# Great Game developer commands. `make run` and `make test` are all most people need.

SHELL := bash
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PORT ?= 8000

.PHONY: venv test run fmt clean proof messages engine-compiled engine-pure

venv: $(STAMP)

# Reinstall only when the dependencies change.
$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Uses DATABASE_URL / REDIS_URL from the environment when set; SQLite otherwise.
test: venv
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/pytest

# Web server, Celery worker and Celery beat in the foreground; Ctrl-C (or a SIGTERM to make)
# stops all three, and so does any one of them stopping. greatgame/runall.py runs each in a
# process group of its own and stops each group with SIGINT, as a terminal would send, so the
# runserver reloader and the worker pool shut down cleanly (a SIGTERM to the worker's group
# kills its pool processes mid-read and can hang the worker for good).
BANNER = Great Game: http://127.0.0.1:$(PORT)/  (sign in as demo1..demo7, password demo; moderator demo/demo; Ctrl-C stops)

run: venv
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py seed_demo --url http://127.0.0.1:$(PORT)
	@echo; echo "$(BANNER)"; echo
	@# runserver gives each request a thread of its own, so live streams take no thread from
	@# the pages: 32 of them, 8 an account (a player with the demo's three games in tabs, each
	@# reloaded, is never refused one). gunicorn.conf.py sets production's from its threads.
	@# Links in notifications point at this server's port unless SITE_URL says otherwise.
	@LIVE_STREAMS_PER_PROCESS=$${LIVE_STREAMS_PER_PROCESS:-32} SITE_URL=$${SITE_URL:-http://127.0.0.1:$(PORT)} \
		exec $(BIN)/python -m greatgame.runall \
		--announce "http://127.0.0.1:$(PORT)/healthz?only=web" "$(BANNER)" \
		-- $(BIN)/celery -A greatgame worker --loglevel=info --concurrency=2 \
		-- $(BIN)/celery -A greatgame beat --loglevel=info \
		-- $(BIN)/python manage.py runserver 0.0.0.0:$(PORT)

# Long fault trials and load benchmarks (docs/benchmarks.md), about 12 minutes, against the
# local PostgreSQL and Redis (database greatgame_bench, Redis db 7). They restart both.
proof: venv
	@status=0; \
	$(BIN)/python -m bench.faults --all || status=1; \
	$(BIN)/python -m bench.deadline_storm --games 1000 --workers 2 || status=1; \
	$(BIN)/python -m bench.api_load --games 100 --workers 2 --connections 50 --seconds 30 \
		|| status=1; \
	exit $$status

# Translations (locale/): gather the strings into the .po files, then compile the .mo files the
# server reads. Needs GNU gettext (apt-get install gettext); the .mo files are committed, so
# `make run` and `make test` need nothing of it.
MESSAGES_IGNORE := --ignore=.venv --ignore=var --ignore=bench --ignore=tests --ignore=docs
messages: venv
	$(BIN)/python manage.py makemessages -l zh_Hans -l ja --no-obsolete $(MESSAGES_IGNORE)
	$(BIN)/python manage.py compilemessages --ignore=.venv

# The optional compiled engine (docs/benchmarks.md, "Compiled engine"): mypyc compiles the
# engine's hot modules to C extensions next to their .py files, which Python then imports
# instead; same answers (tests/test_compiled.py). Needs a C compiler and the Python headers.
# `make engine-pure` removes them. Nothing else builds them: `make venv` and `make test` do not.
engine-compiled: venv
	$(BIN)/python -m pip install --quiet -e '.[dev,compiled]'
	$(BIN)/python -m bench.mypyc_build

engine-pure:
	rm -f adjudication/*.so adjudication/_compiled.json

fmt: venv
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) var build *.egg-info .pytest_cache .ruff_cache .hypothesis .mypy_cache
	rm -f adjudication/*.so adjudication/_compiled.json
	find . -name __pycache__ -type d -not -path './.git/*' -prune -exec rm -rf {} +
