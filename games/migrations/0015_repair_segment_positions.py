# Written by hand: repairs rows stored before games.services._positions_after.

from django.db import migrations


def repair(apps, schema_editor):
    """Give each stored segment the position after it, where it was stored wrong.

    The opening roll of a match's second or later game was stored with a position from
    the game before, and so was a double named automatically straight after a play. A
    game's first position is the match's first one (stored right: the opening of game 1)
    with the winner of its opening roll to move; a named double moves nothing, so its
    position is the segment's before it.
    """
    Segment = apps.get_model("games", "Segment")
    later_openings = Segment.objects.filter(kind="opening", game_number__gt=1)
    for match_id in later_openings.values_list("match", flat=True).distinct().iterator():
        rows = list(Segment.objects.filter(match_id=match_id).order_by("number"))
        start = rows[0].position
        for index, row in enumerate(rows):
            if row.kind == "opening" and row.game_number > 1:
                # A tied roll is rolled again: the first decisive one decides who moves.
                white, black = next(
                    r.dice for r in rows[index:] if r.kind == "opening" and r.dice[0] != r.dice[1]
                )
                row.position = {**start, "turn": "white" if white > black else "black"}
                row.save(update_fields=["position"])
    doubles = Segment.objects.filter(kind="double", automatic=True)
    for row in doubles.iterator():
        before = Segment.objects.get(match_id=row.match_id, number=row.number - 1)
        if row.position != before.position:
            row.position = before.position
            row.save(update_fields=["position"])


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0014_match_read_to"),
    ]

    operations = [
        migrations.RunPython(repair, migrations.RunPython.noop),
    ]
