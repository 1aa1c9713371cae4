"""``manage.py purge_shares --older-than 90d``: the retention of shared results (issue 17, finding 2).

Deletes the anonymous shares (made without a GM account) created more than DAYS days ago; a GM's
shares are kept unless ``--include-owned``. ``--older-than`` takes a whole number of days, bare or
followed by ``d`` or ``j`` (``90``, ``90d``, ``90j``), at least 1. ``--dry-run`` counts without
deleting. Meant for a daily cron job or timer (README, « Résultats partagés »).
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from calculator.models import SharedResult
from rulesets.core.french import count

_DAYS = re.compile(r"\s*(\d{1,6})\s*[dj]?\s*", re.IGNORECASE)
ERROR_DAYS = "--older-than attend un nombre entier de jours, au moins 1, par exemple 90 ou 90d\u202f: «\u202f{value}\u202f» n'en est pas un."

ERROR_MISSING = "Précisez l'âge des partages à supprimer\u202f: --older-than 90 (en jours\u202f; 90d ou 90j aussi)."


def parse_days(value: str) -> int:
    """``90``, ``90d`` or ``90j`` → 90; anything else (``0``, ``-3``, ``3m``, ``1.5``) is refused."""
    match = _DAYS.fullmatch(value or "")
    if match is None or int(match.group(1)) < 1:
        raise CommandError(ERROR_DAYS.format(value=value))
    return int(match.group(1))


def describe(n: int, days: int, owned: bool) -> str:
    """« 3 résultats partagés anonymes de plus de 90 jours » (singular for 1 and 0, as French says;
    a no-break space after each number: issue 15)."""
    which = " ou de MJ" if owned else ""
    shares = count(n, f"résultat partagé anonyme{which}", f"résultats partagés anonymes{which}")
    return f"{shares} de plus de {count(days, 'jour')}"


class Command(BaseCommand):
    help = "Supprime les résultats partagés anonymes plus anciens que --older-than (ceux des MJ sont gardés)."

    def add_arguments(self, parser: CommandParser) -> None:
        # checked in handle (not required=True): argparse would refuse a missing one in English
        parser.add_argument(
            "--older-than", metavar="JOURS", help="âge minimal en jours\u202f: 90, 90d ou 90j (obligatoire)"
        )
        parser.add_argument("--include-owned", action="store_true", help="supprimer aussi les partages des MJ")
        parser.add_argument("--dry-run", action="store_true", help="compter sans rien supprimer")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["older_than"] is None:
            raise CommandError(ERROR_MISSING)
        days = parse_days(str(options["older_than"]))
        cutoff = timezone.now() - timedelta(days=days)
        shares = SharedResult.objects.filter(created_at__lt=cutoff)
        if not options["include_owned"]:
            shares = shares.filter(creator__isnull=True)
        if options["dry_run"]:
            count = shares.count()
            verb = "seraient supprimés" if count > 1 else "serait supprimé"
            self.stdout.write(
                f"{describe(count, days, options['include_owned'])}\u202f: {verb} (--dry-run\u202f: rien n'a été supprimé)."
            )
            return
        _total, per_model = shares.delete()
        count = per_model.get(SharedResult._meta.label, 0)
        verb = "supprimés" if count > 1 else "supprimé"
        self.stdout.write(f"{describe(count, days, options['include_owned'])}\u202f: {verb}.")
