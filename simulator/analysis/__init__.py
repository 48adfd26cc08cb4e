"""Analyses over runs: comparisons, sweeps, advice, designers' profiles, tuning.  Imports: ``running``,
``reporting`` and every layer below them."""
