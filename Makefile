# Two commands for a newcomer: `make demo` and `make test`. Both build the virtual environment first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/pbem demo --ruleset temples-and-swords --seats 4 --seed 7

# The tests run on TEST_WORKERS pytest-xdist workers (`make test TEST_WORKERS=4` on a bigger
# machine), each with its own mail servers, PostgreSQL database, browser and folders.
# loadscope: a module's tests stay on one worker, so that what a module or session fixture
# does once (the campaigns on real mail, the crash test's reference run, the privacy games)
# is done once a run, not once on each worker. (loadgroup and its xdist_group marks would be
# finer, but pytest-xdist 3.8 names a group by rewriting the test's id, which pytest 9 ignores.)
TEST_WORKERS ?= 2

test: $(STAMP)
	bash .ci/system-packages
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/pytest -q -n $(TEST_WORKERS) --dist loadscope

bench: $(STAMP)
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/pipeline.py
	$(BIN)/python bench/latency.py
	$(BIN)/python bench/fuzz.py
	$(BIN)/python bench/hostile_mail.py
	$(BIN)/python bench/passwords.py
	$(BIN)/python bench/pictures.py
	$(BIN)/python bench/clock_look.py
	$(BIN)/python bench/scale.py
	$(BIN)/python bench/campaign.py
	$(BIN)/python bench/web_archive.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
