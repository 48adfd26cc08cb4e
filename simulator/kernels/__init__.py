"""Kernels for users' strategies: specialisation, containment and compile messages.  Imports:
``simulator.errors``, ``simulator.engine``, ``simulator.games`` and ``strategies``."""
