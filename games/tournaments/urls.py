"""Tournament pages (views in games/tournaments/views.py)."""

urlpatterns: list = []
