"""Tournament models (see games/tournaments/services.py)."""
