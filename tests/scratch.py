"""A scratch folder for test modules that write files at import time (fuzzers, soak runs).

`tempfile.mkdtemp` alone left one folder per module per run in the system's temp folder (several
hundred after a day of test runs). `scratch_dir` makes the folder and removes it when the test
process ends, whatever the outcome.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path


def scratch_dir(prefix: str) -> Path:
    """A new empty folder, removed with everything in it when the interpreter exits."""
    path = Path(tempfile.mkdtemp(prefix=prefix))
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path
