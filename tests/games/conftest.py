import pytest

from games.engine.game import ScriptedDice


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user(
        username="bob", email="bob@example.com", password="correct horse battery"
    )


@pytest.fixture
def charlie(django_user_model):
    return django_user_model.objects.create_user(
        username="charlie", email="charlie@example.com", password="correct horse battery"
    )


@pytest.fixture
def scripted():
    return ScriptedDice
