# Two set-up commands (README): `make demo` and `make test`. Both create .venv on first use.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench mutate clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/companion demo --game ptipasspass --players 4 --seed 1

lint: $(STAMP)
	$(BIN)/ruff check companion tests bench
	$(BIN)/ruff format --check companion tests bench
	$(BIN)/mypy

# The emulated Pico's tests (tests/pico) run rp2040js under Node: npm ci installs the
# version package-lock.json pins. Without npm (or when it fails) those tests are skipped,
# except under COMPANION_CI, where they fail.
NODE_MODULES := node_modules/.package-lock.json

$(NODE_MODULES): package-lock.json
	-npm ci --no-audit --no-fund --loglevel=error

# Two workers: the CI machine has 2 cores (pytest-xdist; `make test PYTEST_WORKERS=0` runs
# everything in one process).
PYTEST_WORKERS ?= 2

test: lint $(if $(shell command -v npm),$(NODE_MODULES))
	$(BIN)/pytest -n $(PYTEST_WORKERS)

bench: $(STAMP)
	$(BIN)/python bench/engine_speed.py

# Mutation testing (bench/mutate.py, not in CI: minutes a module): which changes of the
# module's code no test notices. `make mutate MODULE=companion/referee/pace.py
# MUTATE_ARGS="--sample 0"`; without MODULE, every engine, the pace, journal, pairing, link.
mutate: $(STAMP)
	$(BIN)/python bench/mutate.py $(MODULE) $(MUTATE_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis .mutate
