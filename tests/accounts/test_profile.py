"""The public player profile, /players/<username>/."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games.engine import Position
from games.models import Match, RatingChange

pytestmark = pytest.mark.django_db


def finished_match(white, black, *, winner, score=(3, 1), days_ago=1, **fields) -> Match:
    return Match.objects.create(
        variant="american",
        points=3,
        white=white,
        black=black,
        position=Position.initial("american").to_dict(),
        status=Match.Status.FINISHED,
        winner=winner,
        score_white=score[0],
        score_black=score[1],
        finished_at=timezone.now() - timedelta(days=days_ago),
        **{"ending": Match.Ending.BORNE_OFF, **fields},
    )


def active_match(white, black) -> Match:
    return Match.objects.create(
        variant="greek",
        points=5,
        white=white,
        black=black,
        position=Position.initial("greek").to_dict(),
        to_move=white,
    )


def test_it_shows_the_profile(client, alice):
    alice.display_name = "Alice A."
    alice.about = "Plays slowly."
    alice.country = "Greece"
    alice.timezone = "Europe/Athens"
    alice.save()

    response = client.get(reverse("profile", args=["alice"]))

    assert response.status_code == 200
    for text in ("Alice A.", "Plays slowly.", "Greece", "Europe/Athens", "member since"):
        assert text in response.text


def test_it_shows_finished_matches_from_the_players_side(client, alice, bob, charlie):
    won = finished_match(alice, bob, winner=alice, score=(3, 1), days_ago=2)
    lost = finished_match(charlie, alice, winner=charlie, score=(3, 2), days_ago=1)

    response = client.get(reverse("profile", args=["alice"]))

    results = response.context["results"]
    assert [(row.match, row.opponent, row.won) for row in results] == [
        (lost, charlie, False),
        (won, bob, True),
    ]
    assert (results[0].own_score, results[0].opponent_score) == (2, 3)
    text = response.text
    assert "Lost" in text and "2\u20133" in text and "Won" in text and "3\u20131" in text
    assert won.get_absolute_url() in text and lost.get_absolute_url() in text
    assert "borne off" in text and "3 points" in text


def rated_change(match: Match, user, before: float, after: float, rd: float = 60) -> None:
    """The rating change ``match`` made to ``user``'s rating, as rating it stores it."""
    RatingChange.objects.create(
        match=match,
        user=user,
        variant=match.variant,
        rating_before=before,
        rating_after=after,
        rd_before=rd,
        rd_after=rd,
    )


def test_it_says_how_a_match_ended_in_words(client, alice, bob):
    finished_match(alice, bob, winner=alice, days_ago=2, rated=False)
    finished_match(alice, bob, winner=bob, ending=Match.Ending.RESIGNATION, rated=False)

    text = " ".join(client.get(reverse("profile", args=["alice"])).text.split())

    assert "3 points, casual, borne off," in text and "by borne off" not in text
    assert "3 points, casual, by resignation," in text


def test_each_match_says_whether_it_was_rated_and_what_it_did_to_the_rating(client, alice, bob):
    # The records count the rated apart: the list must say which those were.
    finished_match(alice, bob, winner=alice, days_ago=3, rated=False)
    won = finished_match(alice, bob, winner=alice, days_ago=2)
    rated_change(won, alice, 1500.4, 1523.6)
    lost = finished_match(alice, bob, winner=bob, days_ago=1)
    rated_change(lost, alice, 1523.6, 1510.2)
    rated_change(lost, bob, 1400, 1600)  # the opponent's, which is not hers
    active_match(bob, alice)

    text = " ".join(client.get(reverse("profile", args=["alice"])).text.split())

    assert "3 points, casual, borne off," in text
    # 1500 -> 1524 and 1524 -> 1510, as the match page shows them.
    assert "3 points, rated (+24), borne off," in text
    assert "3 points, rated (-14), borne off," in text
    assert "5 points, rated, score" in text


def test_a_rated_match_that_changed_no_rating_says_so(client, alice, bob):
    # Resigned before both had moved (games.ratings.store.played_by_both): not "rated"
    # beside a rating that did not move, nor counted in the rated record above.
    finished_match(alice, bob, winner=bob, ending=Match.Ending.RESIGNATION)

    text = " ".join(client.get(reverse("profile", args=["alice"])).text.split())

    assert (
        "3 points, rated, rating unchanged (ended before both had moved), by resignation," in text
    )


def test_it_shows_current_matches(client, alice, bob):
    match = active_match(bob, alice)

    response = client.get(reverse("profile", args=["alice"]))

    assert [row.match for row in response.context["current"]] == [match]
    assert match.get_absolute_url() in response.text
    assert response.context["results"] == []
    # Whoever is to move: her opponent, here, as well as herself on his profile.
    text = " ".join(response.text.split())
    assert "score 0\u20130, <bdi>bob</bdi> to move</span>" in text
    his = " ".join(client.get(reverse("profile", args=["bob"])).text.split())
    assert "score 0\u20130, <bdi>bob</bdi> to move</span>" in his


def test_it_shows_the_profile_to_its_owner_other_users_and_anonymous_visitors(client, alice, bob):
    finished_match(alice, bob, winner=bob)
    url = reverse("profile", args=["alice"])

    anonymous = client.get(url)
    client.force_login(bob)
    other = client.get(url)
    client.force_login(alice)
    owner = client.get(url)

    assert anonymous.status_code == other.status_code == owner.status_code == 200
    assert "Edit your profile" in owner.text
    assert "Edit your profile" not in other.text
    assert "Edit your profile" not in anonymous.text


def test_it_answers_404_for_an_unknown_player(client):
    assert client.get(reverse("profile", args=["nobody"])).status_code == 404


def test_a_closed_accounts_page_stays_and_says_it_is_closed(client, alice, bob):
    # Its username stays on the matches that link here. An account the staff deactivated
    # reads the same, and shows nothing its owner wrote about themselves.
    alice.display_name = "Alice the Great"
    alice.about = "Write to me at alice@home.example"
    alice.country = "Wonderland"
    alice.is_active = False
    alice.save()
    client.force_login(bob)

    response = client.get(reverse("profile", args=["alice"]))

    assert response.status_code == 200
    assert "This account is closed." in response.text
    assert "Challenge alice" not in response.text
    for private in ("Alice the Great", "alice@home.example", "Wonderland"):
        assert private not in response.text


@pytest.mark.parametrize("count", [3, 30])
def test_it_uses_a_bounded_number_of_queries(
    client, alice, bob, charlie, count, django_assert_num_queries
):
    for n in range(count):
        opponent = bob if n % 2 else charlie
        finished_match(alice, opponent, winner=alice, days_ago=n + 1)
        active_match(opponent, alice)
    client.force_login(bob)

    # session, viewer, person, ratings, record per variant, rating history per variant,
    # head-to-head, the page's count, the page, its rating changes, current matches,
    # whether the viewer has blocked the person, tournaments (current, finished, won): the
    # same whatever the number of matches (and tournaments: tests/tournaments_site).
    with django_assert_num_queries(15):
        response = client.get(reverse("profile", args=["alice"]))

    assert len(response.context["results"]) == min(count, 25)
    assert len(response.context["current"]) == count


def test_it_pages_through_a_long_history(client, alice, bob):
    for n in range(30):
        finished_match(alice, bob, winner=alice, days_ago=n + 1)

    response = client.get(reverse("profile", args=["alice"]), {"page": 2})

    assert len(response.context["results"]) == 5
    assert "Page 2 of 2" in response.text


def test_it_shows_ratings_records_and_the_head_to_head(client, alice, bob):
    finished_match(alice, bob, winner=alice, days_ago=2)
    finished_match(alice, bob, winner=bob, days_ago=1)
    client.force_login(bob)

    response = client.get(reverse("profile", args=["alice"]))

    assert "won 1, you won 1 of 2" in response.text
    records = {r.variant: r for r in response.context["records"]}
    assert (records["american"].wins, records["american"].losses) == (1, 1)


@pytest.mark.parametrize(
    ("asked", "answer"),
    [
        ("/players/ALICE/", "/players/alice/"),
        ("/players/ALICE/dice/", "/players/alice/dice/"),
        ("/players/ALICE/rating-american.svg", "/players/alice/rating-american.svg"),
    ],
)
def test_a_players_pages_are_found_in_any_case_at_their_own_address(client, alice, asked, answer):
    response = client.get(asked)

    assert response.status_code == 301 and response["Location"] == answer
    assert client.get("/players/nobody/dice/").status_code == 404
