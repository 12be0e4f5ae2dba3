"""What the apps' forms share: where a form drawn again with its errors puts the focus."""

from __future__ import annotations

from django.forms import Form


def focus_first_error(form: Form, *, or_first: bool = False) -> None:
    """Give the focus to the form's first field with an error (``or_first``: else to its
    first field): a form drawn again with a reason, often far down a phone's screen, takes
    the player, and a screen reader, there. A form refused with reasons of its own only
    (no field's) leaves its fields alone: templates/_form_fields.html focuses those."""
    names = list(form.fields)
    fallback = names[0] if or_first and names else None
    field = next((name for name in names if name in form.errors), fallback)
    if field is None:
        return
    # One field only: a form may give its first field the focus itself (Django's sign-up
    # and password forms do), and a browser honours the first autofocus on the page.
    for name in names:
        form.fields[name].widget.attrs.pop("autofocus", None)
    form.fields[field].widget.attrs["autofocus"] = True
