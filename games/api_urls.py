"""The JSON API, mounted at /api/v1/ (views in games/api.py)."""

urlpatterns: list = []
