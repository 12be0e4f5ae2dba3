"""Matches and their moves. Models arrive with the match service; the rules
themselves live in games.engine, which knows nothing of Django."""
