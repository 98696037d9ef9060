# The two commands a newcomer needs: `make demo` and `make test`.
# The tool and its tests are installed into .venv from the pinned set in requirements.lock (made
# equal to it: `uv pip sync`), compiled to
# bytecode at install: where PYTHONDONTWRITEBYTECODE is set (as on our CI machines), Python
# would otherwise compile pandas and the rest from source on every command, about 2.5 s each.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
SUDO   := $(shell [ "$$(id -u)" = "0" ] || echo sudo)
export POUND_QUIET ?= 0

.PHONY: help install lab-env browser calc axe demo desk test test-fast bench lint manifest expectations clean lab

help:
	@echo "make install   create .venv and install the pinned dependencies (safe to repeat)"
	@echo "make demo      synthesise nothing, run the sample bundle, render the three reports"
	@echo "make desk      the office desk in the browser, on a copy of the sample (desk/), or BUNDLE=folder [DB=file]"
	@echo "make test      the whole test suite (installs Chromium from Debian for the report tests)"
	@echo "make test-fast every test but the browser and notebook ones, with shorter property searches"
	@echo "make axe       install axe-core, pinned in tests/node (the accessibility tests run it in Chromium)"
	@echo "make calc      install Debian's libreoffice-calc-nogui (the workbook tests read workbooks back in Calc)"
	@echo "make bench     each speed figure as a ratio to a floor measured in the same run (docs/benchmarks.md)"
	@echo "make lab-env   create .venv-lab: the tool and JupyterLab (make lab and make test use it)"
	@echo "make lab       JupyterLab on notebooks/ at 127.0.0.1 (POUND_DB=path picks the database; default demo/)"
	@echo "make manifest  write pipeline/sql/manifest.json again (what each SQL model reads) after changing a model"
	@echo "make lint      ruff, the import layers (import-linter), and a check that expectations/*.json match registers.py"

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml requirements.lock
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check "uv==0.13.9"
	$(BIN)/uv pip sync --quiet --compile-bytecode --python $(BIN)/python requirements.lock
	$(BIN)/uv pip install --quiet --python $(BIN)/python --no-deps -e .
	@$(BIN)/python -m compileall -q pipeline >/dev/null
	@touch $@

# The analyst's workbench has an environment of its own, .venv-lab, from requirements-lab.lock (the
# tool's set and JupyterLab's). JupyterLab brings packages the tool never uses, among them the
# grammars jsonschema compiles for its "iri" formats when it finds them installed (2.5 s of CPU in
# every process importing nbformat, as the reports' do): they stay out of .venv.
LAB_VENV := .venv-lab
lab-env: $(LAB_VENV)/.installed

$(LAB_VENV)/.installed: pyproject.toml requirements-lab.lock $(VENV)/.installed
	@test -x $(LAB_VENV)/bin/python || $(PYTHON) -m venv $(LAB_VENV)
	$(BIN)/uv pip sync --quiet --compile-bytecode --python $(LAB_VENV)/bin/python requirements-lab.lock
	$(BIN)/uv pip install --quiet --python $(LAB_VENV)/bin/python --no-deps -e .
	@touch $@

# Debian's Chromium, for opening the HTML reports in a real browser in the tests and printing
# the papers to PDF; fonts-noto-core brings a font for Kannada names and places, poppler-utils the
# pdftotext the tests read the PDFs back with.
browser:
	@command -v chromium >/dev/null 2>&1 && fc-list 2>/dev/null | grep -q "Noto Sans Kannada" && command -v pdftotext >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium, fonts-noto-core and poppler-utils (once)"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium fonts-noto-core poppler-utils >/dev/null; }

# axe-core, the accessibility engine the page tests run in Chromium (tests/axe.py), from the npm
# registry at the version and hash tests/node/package-lock.json pins; Debian's npm when there is none.
AXE_JS := tests/node/node_modules/axe-core/axe.min.js
axe: $(AXE_JS)

$(AXE_JS): tests/node/package.json tests/node/package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "installing Debian's npm (once)"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq npm >/dev/null; }
	cd tests/node && npm ci --no-audit --no-fund --silent
	@touch $@

# Debian's LibreOffice Calc without a display, for reading the workbooks back in the tests, and its
# python3-uno, with which a test reads Calc's own marks of invalid cells.
calc:
	@command -v soffice >/dev/null 2>&1 && /usr/bin/python3 -c "import uno" >/dev/null 2>&1 || { \
	  echo "installing Debian's libreoffice-calc-nogui and python3-uno (once)"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq libreoffice-calc-nogui python3-uno >/dev/null; }

demo: install
	$(BIN)/pound demo --out demo

# The office desk (pound desk) at http://127.0.0.1:$(DESK_PORT)/: on desk/bundle, a copy of the sample made
# once, with desk/pound.duckdb; or on BUNDLE=folder, with DB=file (default: the folder's name.duckdb beside it).
DESK_PORT ?= 8043
desk: install
	@test -n "$(BUNDLE)" || test -d desk/bundle || { mkdir -p desk && cp -r data/sample desk/bundle; }
	$(BIN)/pound desk --bundle "$(or $(BUNDLE),desk/bundle)" \
	  --db "$(or $(DB),$(if $(BUNDLE),$(patsubst %/,%,$(BUNDLE)).duckdb,desk/pound.duckdb))" --port $(DESK_PORT) --open

# pytest exits 5 when it collected nothing: that is a failure here, not a pass.
# The tests run with bytecode writing on, whatever PYTHONDONTWRITEBYTECODE says: pytest keeps each
# test module's assertion-rewritten code in __pycache__ only then, and rewriting every module again
# costs each of the two test processes about 4 s (git ignores __pycache__).
# Both print the suite's time (pipeline/tools/suite_time.py); make test, when every test passed on a
# quiet machine (load average at most 0.5 at its start), also writes it to tests/suite_time.txt, the
# time the README must state (tests/tools/test_docs_true.py).
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -q -n 2 --dist loadgroup
TIMED  := $(BIN)/python -m pipeline.tools.suite_time
test: install lab-env browser calc axe lint
	@$(TIMED) --record -- $(PYTEST); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing"; exit 1; fi; exit $$rc

# The quick loop while working: every test but the browser and notebook ones, each property test
# drawing about a sixth of its examples (tests/examples.py).
test-fast: install calc
	@POUND_TEST_FAST=1 $(TIMED) -- $(PYTEST) -m "not browser and not notebook"; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing"; exit 1; fi; exit $$rc

# JupyterLab on notebooks/, for analysts: loopback only, the notebooks/*.py open as notebooks
# (jupytext). The notebooks read $$POUND_DB, or the demo's database.
LAB_PORT ?= 8888
lab: install lab-env
	@test -n "$$POUND_DB" || test -f demo/pound.duckdb || $(BIN)/pound demo --out demo
	@echo "JupyterLab on notebooks/: open the URL printed below (with its token); Ctrl-C stops it"
	POUND_DB="$$(realpath "$${POUND_DB:-demo/pound.duckdb}")" JUPYTERLAB_SETTINGS_DIR="$(CURDIR)/notebooks/.jupyter/lab/user-settings" \
	  $(LAB_VENV)/bin/jupyter lab --no-browser --ip=127.0.0.1 --port=$(LAB_PORT) --ServerApp.root_dir="$(CURDIR)/notebooks" \
	  $(if $(filter 0,$(shell id -u)),--allow-root)

# The modules are compiled first, as an install leaves them: where PYTHONDONTWRITEBYTECODE is set, a
# module edited since would be compiled again in every process measured.
bench: install browser
	@$(BIN)/python -m compileall -q pipeline >/dev/null
	$(BIN)/python -m pipeline.tools.bench

lint: install
	$(BIN)/ruff check pipeline tests
	$(BIN)/lint-imports --no-cache
	$(BIN)/python -m pipeline.load.expectations --check
	$(BIN)/python -m pipeline.tools.manifest --check

# What each SQL file reads, from DuckDB's parse, for the build's order (pipeline/build/models.py).
manifest: install
	$(BIN)/python -m pipeline.tools.manifest

clean:
	rm -rf $(VENV) $(LAB_VENV) demo .pytest_cache
