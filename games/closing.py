"""Closing an account: the player leaves the site, and the people they were playing are
not left waiting on them.

The username stays, on the player's past matches and reserved, so that records stay true
and nobody else can take the name and pass for them. What identifies the person (email
address, display name, about text, country, the messages they wrote) is erased, the
password made unusable, and the account deactivated, which ends its sessions and API keys
at once; blocks between them and others (games.blocks), made either way, are deleted: a
closed account can reach nobody, nor be reached. Then everything still in play is ended
the way the player could have ended it themselves: challenges withdrawn or declined,
tournaments left (an open tournament they organise is called off), active matches resigned.
Last, the address erased is told what was done, if it was confirmed.

Deactivating comes first and commits on its own: from then on nobody can challenge the
player, accept their challenge (start_match refuses an inactive player) or email them
(send_notification drops mail to an erased address), so the steps after it only ever
have less to do. They are the site's own services, each in its own transaction, and
:func:`close_account` can run again to finish them should it be interrupted (and
:func:`finish_interrupted`, a beat task, does).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, tzinfo
from functools import partial
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.template.loader import render_to_string
from django.utils import timezone

from accounts.services import revoke_api_keys
from aceysite.mail import send_or_log

from . import services
from .models import (
    Absence,
    Block,
    Challenge,
    ChallengeQuerySet,
    Match,
    Message,
    Notification,
    SentOnce,
)
from .tournaments import services as tournaments
from .tournaments.models import Tournament

if TYPE_CHECKING:
    from accounts.models import User


@dataclass
class Closure:
    """What closing the account ended, for the page that confirms it."""

    matches_resigned: int = 0
    challenges_withdrawn: int = 0  # the player's own
    challenges_declined: int = 0  # those to the player
    tournaments_left: int = 0
    tournaments_called_off: int = 0


def close_account(user: User) -> Closure:
    """Deactivate and erase ``user``'s account, then end what they had in play (see the
    module's docstring), and tell its address what was done, if it was confirmed. Safe to
    run again on a closed account: it finishes what is left (and, the address erased,
    emails nobody)."""
    # The address as the locked row had it before erasing it (not ``user``'s, read
    # earlier in the request: changed meanwhile, or erased by a closure from another tab,
    # which told it already: closed twice at once, the account had two "closed" emails).
    address, zone = _deactivate(user)
    done = end_play(user)
    _tell_closed(user.get_username(), address=address, zone=zone, done=done)
    return done


def _tell_closed(username: str, *, address: str, zone: tzinfo | None, done: Closure) -> None:
    """The last email to a player who closed their account: what closing ended and kept,
    that it cannot be undone, and what to do if it was not them. Sent at once, not
    through the outbox: its rows are the player's, deleted with the account's data, and
    its sender drops email to an erased address."""
    if not address:
        return
    with timezone.override(zone or UTC):
        body = render_to_string(
            "accounts/email/account_closed.txt",
            {
                "username": username,
                "done": done,
                "when": timezone.now(),
                "site_url": settings.SITE_URL,
            },
        )
    subject = "Your Acey-Deucey account is closed"
    # robust: the account is closed already; a mail server's error must not make the page
    # say otherwise (it is logged).
    transaction.on_commit(
        lambda: send_or_log("account closed notice", subject, body, address), robust=True
    )


def _open_challenges(user: User) -> ChallengeQuerySet:
    return Challenge.objects.still_open().filter(Q(challenger=user) | Q(opponent=user))


def _organised(user: User) -> QuerySet[Tournament]:
    """Open tournaments ``user`` organises: called off for everyone signed up."""
    return Tournament.objects.filter(organiser=user, status=Tournament.Status.OPEN)


def _entered(user: User) -> QuerySet[Tournament]:
    """Tournaments ``user`` is still in: open, or running with a match left for them (not
    withdrawn, nor knocked out of an elimination draw, who has nothing to leave)."""
    entered = Tournament.objects.filter(
        status__in=[Tournament.Status.OPEN, Tournament.Status.RUNNING],
        entries__user=user,
        entries__withdrawn=False,
    )
    out = [
        tournament.pk
        for tournament in entered.filter(status=Tournament.Status.RUNNING)
        if not _in_contention(tournament, user.pk)
    ]
    return entered.exclude(pk__in=out)


def _in_contention(tournament: Tournament, user_id: int) -> bool:
    draw = tournament.draw()
    return draw is None or draw.in_contention(user_id)


def in_play(user: User) -> dict[str, object]:
    """What closing ``user``'s account would end, for the page that asks: counts of their
    matches in play, open challenges and tournaments, and the tournaments it calls off."""
    organised = _organised(user)
    return {
        "matches": Match.objects.active().involving(user).count(),
        # Those still waiting only: one past its days shows as expired on every page, so
        # the player would not know it as open, though end_play closes it too.
        "challenges": _open_challenges(user).waiting().count(),
        # Not those she organises as well as plays in: end_play calls them off before it
        # leaves what remains, so they are counted as called off, not as left.
        "tournaments": _entered(user).exclude(pk__in=organised.values("pk")).count(),
        "organised": organised,
    }


def end_play(user: User) -> Closure:
    """End what an inactive ``user`` still has in play, as they could have ended it
    themselves: challenges withdrawn or declined, open tournaments they organise called
    off, tournaments left, matches resigned."""
    done = Closure()
    in_play = list(Match.objects.active().involving(user).values_list("pk", flat=True))
    for challenge in _open_challenges(user):
        # Withdrawn if theirs, declined if addressed to them.
        if challenge.challenger_id == user.pk:
            withdraw = partial(services.cancel_challenge, past_days_too=True)
            done.challenges_withdrawn += _ended(withdraw, challenge.pk, user)
        else:
            decline = partial(services.decline_challenge, past_days_too=True)
            done.challenges_declined += _ended(decline, challenge.pk, user)

    for tournament_id in _organised(user).values_list("pk", flat=True):
        # Only while it is open, under its lock: one that started meanwhile is left to
        # its players (and left, below, if the organiser plays in it).
        call_off = partial(
            tournaments.cancel_tournament,
            only_open=True,
            reason=Tournament.CancelReason.ORGANISER_LEFT,
        )
        done.tournaments_called_off += _ended(call_off, tournament_id, user)
    for tournament_id in _entered(user).values_list("pk", flat=True):
        done.tournaments_left += _ended(_leave, tournament_id, user)

    # Last, the matches outside tournaments (leaving a tournament resigned its own).
    for match_id in Match.objects.active().involving(user).values_list("pk", flat=True):
        _ended(services.resign, match_id, user)
    # Counted as the page that asked for the password counted them: all that were in play
    # (a tournament's too), and that her resignation ended.
    done.matches_resigned = (
        Match.objects.finished()
        .filter(pk__in=in_play, ending=Match.Ending.RESIGNATION)
        .exclude(winner=user)
        .count()
    )
    return done


def finish_interrupted() -> int:
    """Beat (games.tasks): end the play of inactive players that something is still
    waiting on, a closure interrupted after its first step or an account the staff
    deactivated; return how many players. Their opponents are not left to wait for a
    timeout, nor the lobby and tournaments to hold them."""
    gone = {"is_active": False, "is_bot": False}
    waiting_on = set()
    for field in ("white", "black"):
        waiting_on |= set(
            Match.objects.active()
            .filter(**{f"{field}__{key}": value for key, value in gone.items()})
            .values_list(f"{field}_id", flat=True)
        )
    # One past its days too, as end_play closes it (_open_challenges).
    open_challenges = Challenge.objects.still_open()
    waiting_on |= set(
        open_challenges.filter(challenger__is_active=False).values_list("challenger_id", flat=True)
    )
    waiting_on |= set(
        open_challenges.filter(opponent__is_active=False).values_list("opponent_id", flat=True)
    )
    waiting_on |= set(
        Tournament.objects.filter(
            status=Tournament.Status.OPEN, organiser__is_active=False
        ).values_list("organiser_id", flat=True)
    )
    entered = Tournament.objects.filter(
        status__in=[Tournament.Status.OPEN, Tournament.Status.RUNNING],
        entries__withdrawn=False,
        entries__user__is_active=False,
        entries__user__is_bot=False,
    ).annotate(entrant=F("entries__user_id"))
    # One knocked out of a running elimination draw has nothing left to leave: counting
    # them would have every sweep pick them up again until the tournament ends.
    waiting_on |= {
        tournament.entrant
        for tournament in entered
        if tournament.is_open or _in_contention(tournament, tournament.entrant)
    }
    for user in get_user_model().objects.filter(pk__in=waiting_on, is_active=False):
        end_play(user)
    return len(waiting_on)


def _deactivate(user: User) -> tuple[str, tzinfo | None]:
    """Deactivate and erase the account; return where to tell the player: the address
    (confirmed, else none) and the timezone it had, or no address if it was closed
    already."""
    with transaction.atomic():
        # Locked, so that a settings form saved at the same moment cannot write the old
        # address or name back over the erased ones (it saves only its fields, on the
        # locked row of an account still active: accounts.views.settings_page).
        account = get_user_model().objects.select_for_update().get(pk=user.pk)
        # Not to an address never confirmed: anyone may sign up with anyone's, and signing
        # up and closing again and again would send its owner a notice each time (besides
        # the link sign-up sends) of an account that was never theirs, as far as we know.
        confirmed = account.is_active and account.email_confirmed_at is not None
        tell = (account.email if confirmed else ""), account.zone
        name = account.display_name
        account.is_active = False
        account.email = ""
        account.display_name = ""
        account.about = ""
        account.country = ""
        account.timezone = "UTC"  # shown on the profile, and says where they live
        account.away_until = None
        account.forget_email_undo()
        account.forget_email_change()
        account.email_preference = account.EmailPreference.NONE
        account.set_unusable_password()
        account.save()
        revoke_api_keys(account)
        # What they wrote to opponents is theirs, and may say who they are; so do the
        # emails to them, sent or not (their bodies greet them by name). A sender that
        # claims one meanwhile finds the address erased and sends nothing.
        Message.objects.filter(author=account).delete()
        Notification.objects.filter(user=account).delete()
        if name:
            _erase_name_from_others_emails(account, name)
        # Blocks either way keep apart two players who could reach each other; a closed
        # account reaches nobody and can be reached by nobody (and cannot be blocked), so
        # they would only leave a name on the other's list, and say whom she shunned.
        Block.objects.filter(Q(blocker=account) | Q(blocked=account)).delete()
        # The answers kept for requests sent again (games.idempotency) quote what they
        # made: a message's text among them.
        SentOnce.objects.filter(user=account).delete()
    # The caller's object too: the request that closed the account still holds it.
    for field in ("is_active", "email", "display_name", "about", "country", "password"):
        setattr(user, field, getattr(account, field))
    return tell


#: What is left of another player's stored email that named a closed account by its
#: display name: the row stays, for the staff's record of what was sent when.
ERASED = "(Erased: this email named an account since closed.)"


def _erase_name_from_others_emails(account: User, name: str) -> None:
    """Erase the text of the other players' stored emails (kept EMAILS_KEPT) that name
    ``account`` by its display ``name``: their subjects and bodies say "Your turn
    against <name>", "<name> challenges you". Only emails about the account's own
    matches, challenges, time away and tournaments, and its opponents' digests: a name
    that is a common word must not blank every email that has the word. Only those sent
    or dropped: one still to go is written afresh when it goes (a turn's, a challenge's),
    or was queued after the name was erased."""
    about_it = Q(match__white=account) | Q(match__black=account)
    for prefix in ("challenge", "accepted", "declined", "expired"):
        about_it |= Q(
            key__in=[
                f"{prefix}:{pk}"
                for pk in Challenge.objects.filter(
                    Q(challenger=account) | Q(opponent=account)
                ).values_list("pk", flat=True)
            ]
        )
    for pk in Absence.objects.filter(user=account).values_list("pk", flat=True):
        about_it |= Q(key__startswith=f"away:{pk}:")
    entered = Tournament.objects.filter(Q(entries__user=account) | Q(organiser=account))
    for pk in entered.values_list("pk", flat=True).distinct():
        about_it |= Q(key__startswith=f"tournament:{pk}:")
    opponents = Match.objects.involving(account).values_list("white_id", "black_id")
    for player in {pk for pair in opponents for pk in pair} - {account.pk}:
        about_it |= Q(key__startswith=f"digest:{player}:")
    Notification.objects.filter(
        about_it, Q(subject__contains=name) | Q(body__contains=name)
    ).filter(Q(sent_at__isnull=False) | Q(cancelled_at__isnull=False)).exclude(user=account).update(
        subject=ERASED, body=ERASED
    )


def _ended(action: Callable[..., object], object_id: int, user: User) -> int:
    """Carry out one of the player's own actions; 0 if it was already over (it ended
    meanwhile, or an earlier, interrupted closure did it)."""
    try:
        action(object_id, user=user)
    except (services.TurnError, tournaments.TournamentRefused):
        return 0
    return 1


def _leave(tournament_id: int, *, user: User) -> None:
    """Withdraw from a tournament; one that started between reading its state and locking
    it refuses the early withdrawal (StartedMeanwhile), and is left as a running one."""
    try:
        tournaments.withdraw(tournament_id, user=user)
    except tournaments.StartedMeanwhile:
        tournaments.withdraw(tournament_id, user=user)
