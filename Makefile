# Two commands a new player needs: `make play` and `make test`.
# Both create the virtual environment in .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test test-slow lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/python -m game

test: $(STAMP)
	$(BIN)/python -m ruff check game tests
	$(BIN)/python -m mypy game
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m pytest

test-slow: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m pytest -m slow

bench: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m game bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
