# Two commands do all the set-up on a fresh machine:
#   make demo   plays the built-in demo (headless where there is no display -> out/demo.mp4)
#   make test   runs the whole test suite (with a bounded share of the fuzz harness)
#   make fuzz   the long fuzz run (FUZZ_SECONDS / FUZZ_COUNT), make soak the hour-long soak
# Both create .venv and install kzplayer with everything it needs (system OpenGL/EGL
# libraries and Python's venv too, when they are missing and we may install them).
# Another interpreter: make PYTHON=python3.12 test
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test bench fuzz soak clean setup

setup: $(STAMP)

$(STAMP): pyproject.toml
	@bash scripts/system-deps.sh $(PYTHON)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	@touch $(STAMP)
	@echo "kzplayer is installed in $(VENV)/: run '. $(VENV)/bin/activate' to use the kzplayer command"

demo: $(STAMP)
	$(BIN)/kzplayer play $(if $(DISPLAY),,--headless --output out/demo.mp4)

test: $(STAMP)
	$(BIN)/python -m pytest -q

# The long fuzz run (tests/fuzz/run.py): FUZZ_SECONDS (default 600) or FUZZ_COUNT inputs,
# resumable (state and findings in .fuzz/, or FUZZ_STATE).
fuzz: $(STAMP)
	$(BIN)/python -m tests.fuzz.run

# An hour of simulated time of the events sample at 60 Hz (benchmarks/soak.py; SOAK_STEPS).
soak: $(STAMP)
	$(BIN)/python benchmarks/soak.py

bench: $(STAMP)
	for b in benchmarks/bench_*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) out build *.egg-info
