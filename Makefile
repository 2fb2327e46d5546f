# paiju — two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
DB     ?= var/paiju.db
HOST   ?= 127.0.0.1
PORT   ?= 8000
# the tests run on this many worker processes (pytest-xdist): each test makes its own
# databases, ports and servers, so they share nothing; 0 runs them in pytest's own process
TEST_WORKERS ?= 2

.PHONY: run test bench install install-test clean i18n docs

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

$(VENV)/.installed-docs: pyproject.toml $(VENV)/.installed
	$(BIN)/python -m pip install --quiet -e '.[docs]'
	touch $@

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

# The first run makes the export signing key and an admin token (printed once).
run: $(VENV)/.installed
	$(BIN)/paiju keys init --db $(DB)
	$(BIN)/paiju serve --host $(HOST) --port $(PORT) --db $(DB)

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal

bench: $(VENV)/.installed-bench
	$(BIN)/python bench/append.py
	$(BIN)/python bench/sj2.py
	$(BIN)/python bench/fold.py
	$(BIN)/python bench/scale.py
	$(BIN)/python bench/timer.py
	$(BIN)/python bench/startup.py
	$(BIN)/python bench/pairing.py
	$(BIN)/python bench/reads.py
	$(BIN)/python bench/live.py

# The documentation site (mkdocs.yml): docs/ in English and 简体中文, the reference pages
# generated from the code and api_spec.yaml, built strictly (a broken link or a missing page
# fails) into build/site. tests/test_docs.py runs the same build in `make test`. (The two
# variables silence the banners Material and ProperDocs print about MkDocs' future.)
docs: $(VENV)/.installed-docs
	NO_MKDOCS_2_WARNING=1 DISABLE_MKDOCS_2_WARNING=true $(BIN)/mkdocs build --strict --clean

# The catalogues (service/i18n.py): the words extracted from the code, each language's catalogue
# brought up to date with them (a new sentence arrives untranslated: tests/test_catalogues.py
# fails until it is translated), then compiled to the .mo files the package ships.
TRANSLATIONS := service/translations
MESSAGE_KEYWORDS := -k RuleViolation:2 -k Message:1 -k Problem:3 -k rule_refusal:2 \
                    -k violation:2 -k _fail:3 -k fault:3 -k say
EXTRACT := $(BIN)/pybabel -q extract --no-wrap --sort-output --add-location=file -c i18n: \
           --project=paiju --copyright-holder=paiju --ignore-dirs='.* _* .venv tests bench'
i18n: $(VENV)/.installed
	$(EXTRACT) -F babel.cfg $(MESSAGE_KEYWORDS) -o $(TRANSLATIONS)/messages.pot .
	$(EXTRACT) -F babel-pages.cfg -k _ -o $(TRANSLATIONS)/pages.pot .
	for domain in messages pages; do for lang in zh en; do \
	  if [ -f $(TRANSLATIONS)/$$lang/LC_MESSAGES/$$domain.po ]; then \
	    $(BIN)/pybabel -q update --no-wrap --no-fuzzy-matching -D $$domain -l $$lang \
	      -i $(TRANSLATIONS)/$$domain.pot -d $(TRANSLATIONS); \
	  else $(BIN)/pybabel -q init --no-wrap -D $$domain -l $$lang \
	      -i $(TRANSLATIONS)/$$domain.pot -d $(TRANSLATIONS); fi; \
	done; done
	$(BIN)/pybabel -q compile --use-fuzzy -d $(TRANSLATIONS) -D messages
	$(BIN)/pybabel -q compile --use-fuzzy -d $(TRANSLATIONS) -D pages

clean:
	rm -rf $(VENV) build *.egg-info
