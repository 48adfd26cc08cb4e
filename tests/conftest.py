"""Shared test settings: figures are written to a non-interactive backend."""

import os

os.environ.setdefault("MPLBACKEND", "Agg")
