"""The engine: random streams, cards, row layouts, figures' meanings, intervals, the reaction model,
chunked blocks and unmanaged views; no game is named here.  Imports: ``simulator.errors`` only."""
