"""Gris-nese: four of a kind, simultaneous passing, the nose signal and elimination (RULES.md §2)."""
