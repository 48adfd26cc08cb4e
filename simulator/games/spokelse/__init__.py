"""Spøkelse (Ghost): two players, a hidden ghost card that counts, lowest score wins.

RULES.md §3.  Modules: ``variants`` (the Rules dataclass), ``layout`` (its
rows, declared once), ``observation`` (what a strategy sees), ``rules``
(jitted rule functions), ``kernel`` (the compiled round and match loops),
``reference`` (plain Python, for tests and traces), ``game`` (the engine's
view of all this).
"""
