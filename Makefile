# Two commands a new player needs: `make play` and `make test`.
# Both create the virtual environment in .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test test-slow lint bench clean

$(STAMP): pyproject.toml setup.py
	@echo "First run: creating the virtual environment in $(VENV) and installing the game and its"
	@echo "test tools into it (pygame-ce, pygame_gui, pytmx, pydantic, pytest, ruff, mypy...)."
	@echo "This takes about a minute; later runs skip it."
	@$(PYTHON) -m venv $(VENV) || { echo "Could not create $(VENV): on Debian/Ubuntu install python3-venv first (sudo apt install python3-venv)"; exit 1; }
	@echo "- upgrading pip"
	@$(BIN)/python -m pip install --quiet --upgrade pip
	@echo "- installing the game (editable) and its test tools"
	@$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)
	@echo "Set-up done."

play: $(STAMP)
	$(BIN)/python -m game

test: $(STAMP)
	$(BIN)/python -m ruff check game tests
	$(BIN)/python -m mypy game
	$(BIN)/lint-imports --no-cache
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m pytest

test-slow: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m pytest -m slow

bench: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m game bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
