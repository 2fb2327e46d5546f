# paiju — two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
DB     ?= var/paiju.db
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: run test bench install install-test clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Each stamp is redone when pyproject.toml changes, so a new pin is always installed.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

$(VENV)/.installed-bench: pyproject.toml $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	touch $@

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

# The first run makes the export signing key and an admin token (printed once).
run: $(VENV)/.installed
	$(BIN)/paiju keys init --db $(DB)
	$(BIN)/paiju serve --host $(HOST) --port $(PORT) --db $(DB)

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest

bench: $(VENV)/.installed-bench
	$(BIN)/python bench/append.py
	$(BIN)/python bench/sj2.py
	$(BIN)/python bench/fold.py
	$(BIN)/python bench/scale.py
	$(BIN)/python bench/timer.py
	$(BIN)/python bench/pairing.py
	$(BIN)/python bench/reads.py
	$(BIN)/python bench/live.py

clean:
	rm -rf $(VENV) build *.egg-info
