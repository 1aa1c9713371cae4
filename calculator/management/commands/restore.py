"""``manage.py restore FILE [--replace]``: load a backup of ``manage.py backup`` (issue 17, finding 7).

The file's header is checked first (a ``dumpdata`` output, or any other file, is refused); the
objects are then loaded in one transaction, into a migrated database: any failure leaves it as it
was. Without ``--replace`` the backup's objects overwrite the rows with the same key and the other
rows stay; with ``--replace`` the site's data is deleted first, in the same transaction, so the
database ends exactly as it was backed up. See :mod:`calculator.backups`.
"""

from __future__ import annotations

import sys
from datetime import datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from calculator import backups
from rulesets.core.french import count


class Command(BaseCommand):
    help = (
        "Restaure une sauvegarde de «\u202fmanage.py backup\u202f» en une seule transaction (en cas d'erreur, la base "
        "reste telle quelle)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="sauvegarde à charger (.json ou .json.gz), ou - pour l'entrée standard")
        parser.add_argument(
            "--replace",
            action="store_true",
            help=(
                "effacer d'abord toutes les données du site (comptes, rencontres, partages, bestiaire) pour "
                "revenir exactement à l'état sauvegardé\u202f; sans cette option, les objets de la sauvegarde "
                "remplacent ceux de même clé et les autres restent"
            ),
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: str = options["file"]
        try:
            document = backups.read(path, stdin=sys.stdin.buffer if path == "-" else None)
            counts = backups.restore(document, replace=options["replace"])
        except backups.BackupError as exc:
            raise CommandError(str(exc)) from None
        if options["verbosity"] >= 2:
            for label, n in sorted(counts.items()):
                self.stdout.write(f"  {label}\u202f: {n}")
        if options["verbosity"] >= 1:
            erased = " après effacement des données précédentes" if options["replace"] else ""
            self.stdout.write(
                f"Restauration terminée{erased}\u202f: {count(sum(counts.values()), 'objet chargé')} depuis "
                f"la sauvegarde du {_when(document.get('created'))}."
            )


def _when(created: Any) -> str:
    """The header's ``created`` as « 01/12/2026 à 19:06 » (local time), or as written if unreadable."""
    try:
        moment = datetime.fromisoformat(str(created))
    except ValueError:
        return str(created)
    if timezone.is_naive(moment):
        return moment.strftime("%d/%m/%Y à %H:%M")
    return timezone.localtime(moment).strftime("%d/%m/%Y à %H:%M")
