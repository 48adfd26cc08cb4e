"""``python -m simulator.cli``: the ``kortsim`` command."""

from simulator.cli import main

main()
