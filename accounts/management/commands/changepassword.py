"""Django's ``changepassword``, which then does what any new password does here: revoke
the account's API keys and tell its address (:func:`accounts.services.shut_out_others`).
It takes the place of Django's because ``accounts`` comes before ``django.contrib.auth``
in INSTALLED_APPS."""

import getpass

from django.contrib.auth.management.commands import changepassword
from django.db import transaction

from accounts.models import User
from accounts.services import shut_out_others


class Command(changepassword.Command):
    def handle(self, *args, **options) -> str:
        with transaction.atomic(using=options["database"]):
            # Django's raises CommandError, having saved nothing, unless the password is set.
            done = super().handle(*args, **options)
            username = options["username"] or getpass.getuser()
            account = User.objects.using(options["database"]).get(username=username)
            revoked = shut_out_others(account, reset=False, by_staff=True)
        if not revoked:
            return f"{done}\nIt had no API keys."
        return f"{done}\nRevoked its {revoked} API key{'s' * (revoked != 1)}."
