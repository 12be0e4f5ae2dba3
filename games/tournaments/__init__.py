"""Correspondence tournaments.

The pairing and bracket rules live in :mod:`games.tournaments.brackets`, a pure module
(standard library only) that the site drives. Keep this package's ``__init__`` free of
Django imports so the rules can be imported without settings.
"""
