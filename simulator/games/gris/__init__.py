"""Gris, the suit game: five cards of one suit, a stock used as a queue, thumbs and G-R-I-S.

RULES.md §1 (with §4 reaction and §6 stalled rounds).  Modules: ``variants``
(the Rules dataclass), ``layout`` (its rows, declared once), ``observation``
(what a strategy sees), ``rules`` (jitted rule functions), ``kernel`` (the
compiled round and match loops), ``reference`` (plain Python, for tests and
traces), ``game`` (the engine's view of all this).
"""
