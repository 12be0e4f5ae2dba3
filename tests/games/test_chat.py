"""Messages between a match's two players (games.chat): who may write, what is kept, who
sees them, and the match page's part in it."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import TYPE_CHECKING

import pytest
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from games import chat, services
from games.models import Match, Message
from tests.matches import opened_by_white

if TYPE_CHECKING:
    from accounts.models import User

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(alice, bob) -> Match:
    return opened_by_white(alice, bob)


def _loaded(match: Match) -> Match:
    return Match.objects.select_related("white", "black").get(pk=match.pk)


def test_a_player_writes_and_both_players_read_it(match, alice, bob):
    chat.post_message(match.pk, user=alice, text="  Good luck!\r\n\r\n\r\n\r\nHave fun.  ")

    for reader in (alice, bob):
        conversation = chat.conversation(_loaded(match), reader)
        assert conversation is not None
        assert [m.text for m in conversation.messages] == ["Good luck!\n\nHave fun."]
        assert conversation.can_write


def test_a_spectator_sees_no_messages_and_cannot_write(match, alice, charlie):
    chat.post_message(match.pk, user=alice, text="Good luck!")

    assert chat.conversation(_loaded(match), charlie) is None
    with pytest.raises(services.NotAllowed):
        chat.post_message(match.pk, user=charlie, text="Hello both")
    assert Message.objects.count() == 1


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "write something first"),
        (" \n\t ", "write something first"),
        ("\x00\u200b\u202e", "write something first"),  # nothing a reader would see
        ("x" * (chat.MAX_LENGTH + 1), f"at most {chat.MAX_LENGTH} characters"),
    ],
)
def test_an_empty_or_overlong_message_is_refused_and_nothing_stored(match, alice, text, reason):
    with pytest.raises(chat.ChatRefused, match=reason):
        chat.post_message(match.pk, user=alice, text=text)
    assert not Message.objects.exists()


def test_control_and_direction_characters_are_dropped(match, alice):
    message = chat.post_message(match.pk, user=alice, text="ni\x00ce \u202eroll\u202c\x07")

    assert message.text == "nice roll"


@pytest.mark.parametrize(
    "text",
    [
        "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # a family: emoji joined by ZWJ
        "\U0001f3f3\ufe0f\u200d\U0001f308",  # the rainbow flag
        "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",  # Persian, with a ZWNJ
    ],
)
def test_joiners_that_spell_emoji_and_words_are_kept(match, alice, text):
    assert chat.post_message(match.pk, user=alice, text=text).text == text


@pytest.mark.parametrize("text", ["\u2060\ufeff", "\u3164", "\u2800\u2800", "\u200d"])
def test_a_message_with_nothing_to_see_is_refused(match, alice, text):
    with pytest.raises(chat.ChatRefused, match="write something first"):
        chat.post_message(match.pk, user=alice, text=text)


def test_a_day_holds_a_limited_number_of_messages(match, alice):
    now = timezone.now()
    Message.objects.bulk_create(
        Message(match=match, author=alice, text="hi", created_at=now - timedelta(hours=1))
        for _ in range(chat.MAX_PER_DAY)
    )

    with pytest.raises(chat.TooManyMessages, match="wait a while") as refused:
        chat.post_message(match.pk, user=alice, text="one more", now=now)
    assert refused.value.status == 429
    assert refused.value.retry_after == 23 * 3600  # when the first of them is a day old
    # A day later, the count starts again.
    chat.post_message(match.pk, user=alice, text="next day", now=now + timedelta(days=1))


def test_a_player_who_turned_messages_off_sees_none_and_the_opponent_is_told(match, alice, bob):
    chat.post_message(match.pk, user=alice, text="Good luck!")
    bob.shows_messages = False
    bob.save()

    bobs = chat.conversation(_loaded(match), bob)
    alices = chat.conversation(_loaded(match), alice)

    assert bobs is not None and bobs.messages == [] and not bobs.can_write
    assert alices is not None and not alices.can_write
    assert alices.closed_because == "messages are off here: bob has turned them off"
    with pytest.raises(chat.ChatRefused, match="bob has turned them off"):
        chat.post_message(match.pk, user=alice, text="Are you there?")


def test_after_a_week_past_the_end_the_match_takes_no_more(match, alice, bob):
    services.resign(match.pk, user=bob)
    ended = Match.objects.get(pk=match.pk).finished_at

    chat.post_message(match.pk, user=alice, text="Good game", now=ended + timedelta(days=6))
    with pytest.raises(chat.ChatRefused, match="more than a week ago"):
        chat.post_message(match.pk, user=alice, text="Rematch?", now=ended + timedelta(days=8))


def test_nobody_writes_to_a_closed_account(match, alice, bob):
    from games import closing

    closing.close_account(bob)

    conversation = chat.conversation(_loaded(match), alice)
    assert conversation is not None and not conversation.can_write
    with pytest.raises(chat.ChatRefused, match="bob's account is closed"):
        chat.post_message(match.pk, user=alice, text="Are you there?")


def test_an_account_closed_while_its_message_was_on_the_way_writes_nothing(match, alice):
    """The request's user was read before the closing committed: the locked row decides."""
    from games import closing

    sender = type(alice).objects.get(pk=alice.pk)  # as the request read it, still active
    closing.close_account(alice)

    with pytest.raises(services.NotAllowed, match="your account is closed"):
        chat.post_message(match.pk, user=sender, text="One last word")
    assert not Message.objects.filter(match=match).exists()


def test_nobody_writes_to_a_bot(alice):
    bot = next(user for user in services.bot_users() if user.username == "beginner-bot")
    match = opened_by_white(alice, bot)

    with pytest.raises(chat.ChatRefused, match="is a computer player"):
        chat.post_message(match.pk, user=alice, text="hello")


# -- the pages -------------------------------------------------------------------------------


def test_the_match_page_shows_the_players_their_messages_only(client, match, alice, charlie):
    chat.post_message(match.pk, user=alice, text="<b>Good luck</b>")
    url = match.get_absolute_url()

    client.force_login(alice)
    mine = client.get(url).text
    client.force_login(charlie)
    watching = client.get(url).text

    assert "&lt;b&gt;Good luck&lt;/b&gt;" in mine  # escaped, not markup
    assert "Message to <bdi>bob</bdi>" in mine
    assert "Good luck" not in watching and 'id="messages"' not in watching


def _written(match: Match, count: int, *, by: User | None = None, read: bool = True) -> list[int]:
    """``count`` messages in ``match``, one player's then the other's (or all ``by`` one),
    written two days ago (beyond the day's limit, which they do not count in), and, if
    ``read``, read by both since: their ids, the oldest first."""
    ago = timezone.now() - timedelta(days=2)
    players = (by, by) if by else (match.white, match.black)
    made = Message.objects.bulk_create(
        Message(match=match, author=players[n % 2], text=f"note {n}.", created_at=ago)
        for n in range(count)
    )
    ids = [message.pk for message in made]
    Match.objects.filter(pk=match.pk).update(message_count=F("message_count") + count)
    if read and ids:
        Match.objects.filter(pk=match.pk).update(white_read_to=ids[-1], black_read_to=ids[-1])
    return ids


def _shown(page: str) -> list[str]:
    """The texts of the messages a page or section shows, in order."""
    return re.findall(r'<li class="chat-\w+">.*?<p dir="auto">(.*?)</p></li>', page)


def _notes(numbers: range) -> list[str]:
    return [f"note {n}." for n in numbers]


def test_the_match_page_shows_the_latest_messages_and_older_ones_a_page_at_a_time(
    client, match, alice
):
    total = chat.SHOWN + chat.MOST_SHOWN + 5
    ids = _written(match, total)
    client.force_login(alice)
    url = match.get_absolute_url()

    page = client.get(url).text
    older = client.get(url, {"before": ids[-chat.SHOWN]}).text
    oldest = client.get(url, {"before": ids[5]}).text
    newer = client.get(url, {"after": ids[chat.MOST_SHOWN + 4]}).text

    assert _shown(page) == _notes(range(chat.MOST_SHOWN + 5, total))
    assert f'href="{url}?before={ids[-chat.SHOWN]}#messages">Older messages' in page
    # A page of the past: a few hundred, with links either way and back to the latest.
    assert _shown(older) == _notes(range(5, chat.MOST_SHOWN + 5))
    assert f'href="{url}?before={ids[5]}#messages">Older messages' in older
    assert f'href="{url}?after={ids[chat.MOST_SHOWN + 4]}#messages">Newer messages' in older
    assert f'href="{url}#messages">Back to the latest messages' in older
    assert 'id="chat-poll"' in page and 'id="chat-poll"' not in older  # nothing appended
    assert _shown(oldest) == _notes(range(5))
    assert "Older messages" not in oldest
    assert _shown(newer) == _notes(range(chat.MOST_SHOWN + 5, total))
    assert "Newer messages" not in newer and "Older messages" in newer


def test_a_page_of_the_past_links_only_to_messages_there_are(client, match, alice, charlie):
    # Ids are the site's: another match's message comes before all of this one's.
    [elsewhere] = _written(opened_by_white(alice, charlie), 1)
    ids = _written(match, 10)
    client.force_login(alice)
    url = match.get_absolute_url()

    # The first page, asked for after a message that is not among the match's (a link
    # made up, or out of date: the messages before it erased with a closed account)...
    first = client.get(url, {"after": elsewhere}).text
    # ...and the last, before one that is not there yet.
    last = client.get(url, {"before": ids[-1] + 1}).text
    after_some = client.get(url, {"after": ids[4]}).text
    before_some = client.get(url, {"before": ids[5]}).text

    assert _shown(first) == _shown(last) == _notes(range(10))
    for page in (first, last):
        assert "Older messages" not in page and "Newer messages" not in page
    assert _shown(after_some) == _notes(range(5, 10))
    assert f'href="{url}?before={ids[5]}#messages">Older messages' in after_some
    assert "Newer messages" not in after_some
    assert _shown(before_some) == _notes(range(5))
    assert f'href="{url}?after={ids[4]}#messages">Newer messages' in before_some
    assert "Older messages" not in before_some


def test_a_short_conversation_is_shown_whole_without_a_link(client, match, alice):
    _written(match, chat.SHOWN)
    client.force_login(alice)

    page = client.get(match.get_absolute_url()).text

    assert len(_shown(page)) == chat.SHOWN
    assert "Older messages" not in page


def _unread(match: Match, player: User) -> int:
    return Match.objects.with_unread_messages(player).get(pk=match.pk).unread_messages


def _new_on(page: str) -> list[str]:
    """The texts of the messages a page marks new, in order."""
    return re.findall(r'<span class="chat-new">.*?<p dir="auto">(.*?)</p></li>', page)


@pytest.mark.parametrize("read_before", [0, 30])
def test_the_match_page_goes_back_to_the_first_unread_message(
    client, match, alice, bob, read_before
):
    _written(match, read_before)
    bobs = _written(match, 40, by=bob, read=False)
    _written(match, 20, by=alice, read=False)
    assert _unread(match, alice) == 40
    client.force_login(alice)

    page = client.get(match.get_absolute_url()).text

    # Bob's 40 unread and Alice's 20 after them: more than the latest 50, all shown.
    assert len(_shown(page)) == 60
    assert _new_on(page) == [f"note {n}." for n in range(40)]
    assert ("Older messages" in page) == bool(read_before)
    assert _unread(match, alice) == 0
    assert chat.read_to(_loaded(match), alice) > bobs[-1]


def test_unread_messages_too_many_to_show_are_left_unread_until_shown(client, match, alice, bob):
    _written(match, 5)
    bobs = _written(match, chat.MOST_SHOWN + 10, by=bob, read=False)
    client.force_login(alice)

    page = client.get(match.get_absolute_url()).text

    # The first of them, from the first unread: the newer are left unread, not skipped.
    assert _new_on(page) == [f"note {n}." for n in range(chat.MOST_SHOWN)]
    assert f"The first {chat.MOST_SHOWN} messages since you last looked." in page
    assert f"?after={bobs[chat.MOST_SHOWN - 1]}" in page  # the poll brings the rest
    assert _unread(match, alice) == 10
    newer = f'href="{match.get_absolute_url()}?after={bobs[chat.MOST_SHOWN - 1]}#messages"'
    assert f"{newer}>Newer messages" in page  # and a link, without JavaScript
    rest = client.get(match.get_absolute_url(), {"after": bobs[chat.MOST_SHOWN - 1]}).text
    assert _new_on(rest) == [f"note {n}." for n in range(chat.MOST_SHOWN, chat.MOST_SHOWN + 10)]
    assert _unread(match, alice) == 0


def test_a_page_of_the_past_marks_read_what_it_shows(client, match, alice, bob):
    _written(match, 5)
    bobs = _written(match, chat.MOST_SHOWN + 10, by=bob, read=False)
    client.force_login(alice)

    # The 300 before the 301st: Bob's first 300 messages, only read ones before them.
    page = client.get(match.get_absolute_url(), {"before": bobs[chat.MOST_SHOWN]}).text

    assert _new_on(page) == _notes(range(chat.MOST_SHOWN))
    assert _unread(match, alice) == 10


@pytest.mark.parametrize("asked", ["before", "after"])
def test_a_page_of_the_past_that_leaves_out_unread_messages_marks_none_read(
    client, match, alice, bob, asked
):
    _written(match, 5)
    bobs = _written(match, chat.MOST_SHOWN + 10, by=bob, read=False)
    client.force_login(alice)
    # Links made up, or out of date: Bob's latest 300, or those after his 5th.
    query = {"before": bobs[-1] + 1} if asked == "before" else {"after": bobs[4]}

    page = client.get(match.get_absolute_url(), query).text

    assert len(_new_on(page)) == chat.MOST_SHOWN  # new on the page, as they are
    assert _unread(match, alice) == chat.MOST_SHOWN + 10  # and still new after it


def test_a_page_after_messages_only_the_viewer_wrote_since_they_read_marks_read(
    client, match, alice, bob
):
    _written(match, 5)
    alices = _written(match, 3, by=alice, read=False)  # her own: never new to her
    _written(match, 4, by=bob, read=False)
    client.force_login(alice)

    page = client.get(match.get_absolute_url(), {"after": alices[-1]}).text

    # Only her own left out before them: Bob's four are new on the page, and read after it.
    assert _new_on(page) == _notes(range(4))
    assert _unread(match, alice) == 0


def test_a_message_sent_with_htmx_brings_back_the_latest_messages_only(client, match, bob):
    _written(match, chat.SHOWN + 5)
    client.force_login(bob)

    response = client.post(
        reverse("match_messages", args=[match.pk]), {"text": "Thanks!"}, HTTP_HX_REQUEST="true"
    )

    shown = _shown(response.text)
    assert len(shown) == chat.SHOWN
    assert shown[-2:] == [f"note {chat.SHOWN + 4}.", "Thanks!"]
    assert "Older messages" in response.text
    assert "Message sent." in response.text  # said in the live region
    assert "autofocus" in response.text  # the focus back in the box


def test_sending_without_javascript_goes_back_to_the_messages(client, match, bob):
    client.force_login(bob)

    response = client.post(reverse("match_messages", args=[match.pk]), {"text": "Thanks!"})

    assert response.status_code == 302
    assert response.url == match.get_absolute_url() + "#messages"
    assert Message.objects.get().text == "Thanks!"


def test_sending_with_htmx_draws_the_messages_again(client, match, bob):
    client.force_login(bob)

    response = client.post(
        reverse("match_messages", args=[match.pk]), {"text": "Thanks!"}, HTTP_HX_REQUEST="true"
    )

    assert response.status_code == 200
    assert '<section id="messages"' in response.text
    assert "Thanks!" in response.text
    assert "Message sent." in response.text  # said in the live region


@pytest.mark.parametrize("htmx", [False, True])
def test_a_refused_message_keeps_its_text_with_the_reason(client, match, bob, htmx):
    client.force_login(bob)
    text = "y" * (chat.MAX_LENGTH + 5)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}

    response = client.post(reverse("match_messages", args=[match.pk]), {"text": text}, **headers)

    assert response.status_code == 400
    assert f"A message is at most {chat.MAX_LENGTH} characters" in response.text
    assert text in response.text
    assert not Message.objects.exists()


@pytest.mark.parametrize("too", ["long", "many"])
def test_a_refusal_is_spoken_once_by_the_error_not_the_live_region_too(client, match, bob, too):
    client.force_login(bob)
    if too == "many":  # the day's messages written, within the day
        Message.objects.bulk_create(
            Message(match=match, author=bob, text="Hi", created_at=timezone.now())
            for _ in range(chat.MAX_PER_DAY)
        )
    text = "y" * (chat.MAX_LENGTH + 5) if too == "long" else "One more"

    response = client.post(
        reverse("match_messages", args=[match.pk]), {"text": text}, HTTP_HX_REQUEST="true"
    )

    assert response.status_code == (400 if too == "long" else 429)
    # The box takes the focus and is described by the error: a screen reader reads it
    # there. The live region is emptied (of "Message sent.", say), not given it again.
    assert 'aria-describedby="message-error message-help"' in response.text
    assert '<div id="chat-announce" hx-swap-oob="innerHTML"></div>' in response.text
    assert response.text.count('class="error"') == 1


def test_only_the_players_may_post(client, match, charlie):
    client.force_login(charlie)

    response = client.post(reverse("match_messages", args=[match.pk]), {"text": "hi"})

    assert response.status_code == 403
    assert not Message.objects.exists()


def test_both_players_pages_poll_for_new_messages(client, match, alice, bob):
    chat.post_message(match.pk, user=bob, text="Good luck")
    first = Message.objects.get()
    client.force_login(alice)  # alice is to move: her page has no board poll, but this one

    page = client.get(match.get_absolute_url()).text
    poll = re.search(r'<span id="chat-poll" hidden hx-get="([^"]+)"', page).group(1)
    nothing_new = client.get(poll.replace("&amp;", "&"), HTTP_HX_REQUEST="true")
    chat.post_message(match.pk, user=bob, text="Take your time <3")
    news = client.get(poll.replace("&amp;", "&"), HTTP_HX_REQUEST="true")

    assert poll.endswith(f"?after={first.pk}")
    assert nothing_new.status_code == 204
    assert news.status_code == 200
    assert news.text.count("<li ") == 1 and "Take your time &lt;3" in news.text
    newest = Message.objects.latest("pk")
    assert 'id="chat-poll" hidden hx-swap-oob="true"' in news.text
    assert f"?after={newest.pk}" in news.text  # the next poll starts after it
    assert "bob wrote: Take your time &lt;3" in news.text  # said in the live region


def test_every_message_a_poll_brings_is_said_in_the_live_region(client, match, alice, bob):
    # Two arriving together: only the last was read out.
    client.force_login(alice)
    page = client.get(match.get_absolute_url()).text
    poll = re.search(r'<span id="chat-poll" hidden hx-get="([^"]+)"', page).group(1)
    chat.post_message(match.pk, user=bob, text="First")
    chat.post_message(match.pk, user=bob, text="Second")

    news = client.get(poll.replace("&amp;", "&"), HTTP_HX_REQUEST="true").text

    said = re.search(r'<div id="chat-announce" hx-swap-oob="innerHTML">(.*?)</div>', news)
    assert said and said.group(1) == (
        "2 new messages. <p>bob wrote: First</p><p>bob wrote: Second</p>"
    )


def test_a_poll_brings_a_page_of_new_messages_at_a_time(client, match, alice):
    ids = _written(match, chat.SHOWN + 5)
    client.force_login(alice)
    url = reverse("match_messages", args=[match.pk])

    first = client.get(f"{url}?after=0", HTTP_HX_REQUEST="true").text
    then = client.get(f"{url}?after={ids[chat.SHOWN - 1]}", HTTP_HX_REQUEST="true").text

    assert _shown(first) == [f"note {n}." for n in range(chat.SHOWN)]
    assert f"?after={ids[chat.SHOWN - 1]}" in first  # the next poll asks for the rest
    assert _shown(then) == [f"note {n}." for n in range(chat.SHOWN, chat.SHOWN + 5)]


def test_the_poll_shows_nothing_to_a_spectator_or_a_player_with_messages_off(
    client, match, alice, bob, charlie
):
    chat.post_message(match.pk, user=alice, text="Hello")
    url = reverse("match_messages", args=[match.pk]) + "?after=0"

    client.force_login(charlie)
    assert client.get(url, HTTP_HX_REQUEST="true").status_code == 403
    bob.shows_messages = False
    bob.save()
    client.force_login(bob)
    assert client.get(url, HTTP_HX_REQUEST="true").status_code == 286  # htmx: stop polling


def test_a_poll_from_a_page_whose_session_ended_stops_without_a_redirect(client, match):
    url = reverse("match_messages", args=[match.pk]) + "?after=0"

    response = client.get(url, HTTP_HX_REQUEST="true")

    assert response.status_code == 286
    assert "HX-Redirect" not in response.headers


@pytest.mark.parametrize("htmx", [False, True])
def test_a_refusal_that_takes_the_box_away_keeps_what_was_written(client, match, alice, bob, htmx):
    client.force_login(alice)
    bob.shows_messages = False  # meanwhile, while alice was typing
    bob.save()
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}

    response = client.post(
        reverse("match_messages", args=[match.pk]), {"text": "A long and careful note"}, **headers
    )

    assert response.status_code == 400
    # Said once, as the error, which takes the focus the box had.
    section = re.search(r'<section id="messages".*?</section>', response.text, re.S).group()
    assert section.count("Messages are off here: bob has turned them off.") == 1
    assert '<p id="message-error" class="error" tabindex="-1" autofocus>' in response.text
    assert "A long and careful note" in response.text
    assert 'name="text"' not in response.text  # no box to write in


def test_a_player_with_messages_off_is_told_where_to_turn_them_on(client, match, bob):
    bob.shows_messages = False
    bob.save()
    client.force_login(bob)

    text = client.get(match.get_absolute_url()).text

    assert "You have turned messages off" in text
    assert reverse("settings") in text
    assert "Only you and" not in text


# -- unread messages: marked on the dashboard until the match page has shown them ----------


def _dashboard_news(client, user) -> list[str]:
    client.force_login(user)
    page = client.get(reverse("dashboard")).text
    return re.findall(r'class="card-news"[^>]*>(\d+ new messages?)<', page)


def test_the_dashboard_counts_the_opponents_unread_messages_until_the_page_shows_them(
    client, match, alice, bob
):
    chat.post_message(match.pk, user=alice, text="Good luck!")
    chat.post_message(match.pk, user=alice, text="Have fun.")
    chat.post_message(match.pk, user=bob, text="You too.")

    # Bob's own message is not news to him; Alice's two are. Alice has none to read.
    assert _dashboard_news(client, bob) == ["2 new messages"]
    assert _dashboard_news(client, alice) == ["1 new message"]

    client.force_login(bob)
    page = client.get(match.get_absolute_url()).text
    assert page.count('class="chat-new"') == 2  # marked on the page that shows them
    assert _dashboard_news(client, bob) == []
    again = client.get(match.get_absolute_url()).text
    assert 'class="chat-new"' not in again
    # Alice's marker is her own.
    assert _dashboard_news(client, alice) == ["1 new message"]


def test_the_poll_that_brings_a_message_marks_it_read(client, match, alice, bob):
    first = chat.post_message(match.pk, user=alice, text="Good luck!")
    client.force_login(bob)
    client.get(match.get_absolute_url())
    chat.post_message(match.pk, user=alice, text="Your move.")
    assert _dashboard_news(client, bob) == ["1 new message"]

    poll = client.get(
        reverse("match_messages", args=[match.pk]) + f"?after={first.pk}", HTTP_HX_REQUEST="true"
    )

    assert poll.status_code == 200 and "Your move." in poll.text
    assert 'class="chat-new"' in poll.text
    assert _dashboard_news(client, bob) == []


def test_the_read_marker_never_moves_back(match, alice, bob):
    first = chat.post_message(match.pk, user=alice, text="One")
    second = chat.post_message(match.pk, user=alice, text="Two")
    chat.mark_read(_loaded(match), bob, second.pk)

    chat.mark_read(_loaded(match), bob, first.pk)  # a page drawn earlier reports late

    assert chat.read_to(_loaded(match), bob) == second.pk
    assert Match.objects.with_unread_messages(bob).get(pk=match.pk).unread_messages == 0


def test_a_player_with_messages_off_is_shown_nothing_new(client, match, alice, bob):
    chat.post_message(match.pk, user=alice, text="Good luck!")
    bob.shows_messages = False
    bob.save(update_fields=["shows_messages"])

    assert _dashboard_news(client, bob) == []
    assert Match.objects.with_unread_messages(bob).get(pk=match.pk).unread_messages == 0


def test_messages_deleted_with_a_closed_account_are_not_counted(match, alice, bob):
    chat.post_message(match.pk, user=alice, text="Good luck!")
    Message.objects.filter(author=alice).delete()  # as closing an account does

    assert Match.objects.with_unread_messages(bob).get(pk=match.pk).unread_messages == 0


def test_the_limit_counts_as_the_browsers_box_does(match, alice):
    # An emoji beyond the Basic Multilingual Plane is two UTF-16 units: the page's box
    # (maxlength) stops at 250 of them, and so does the server.
    chat.post_message(match.pk, user=alice, text="\U0001f3b2" * (chat.MAX_LENGTH // 2))

    with pytest.raises(chat.ChatRefused, match=f"at most {chat.MAX_LENGTH} characters"):
        chat.post_message(match.pk, user=alice, text="\U0001f3b2" * (chat.MAX_LENGTH // 2) + "!")
    assert Message.objects.count() == 1


def test_messages_are_spoken_in_a_live_region_of_their_own_not_the_boards(
    client, match, alice, bob
):
    client.force_login(alice)
    page = client.get(match.get_absolute_url()).text
    chat.post_message(match.pk, user=bob, text="Nice roll")
    news = client.get(
        reverse("match_messages", args=[match.pk]) + "?after=0", HTTP_HX_REQUEST="true"
    )
    sent = client.post(
        reverse("match_messages", args=[match.pk]), {"text": "Thanks"}, HTTP_HX_REQUEST="true"
    )

    # Two polite regions on the page: the board's news and the messages' news.
    for region in ("announce", "chat-announce"):
        assert f'<div id="{region}" class="visually-hidden" role="status"' in page
    # A message arriving with the opponent's move leaves the move's sentence to be read.
    assert '<div id="chat-announce" hx-swap-oob="innerHTML"><p>bob wrote: Nice roll</p></div>' in (
        news.text
    )
    assert '<div id="chat-announce" hx-swap-oob="innerHTML">Message sent.</div>' in sent.text
    for response in (news, sent):
        assert 'id="announce"' not in response.text
