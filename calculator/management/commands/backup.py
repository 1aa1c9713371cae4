"""``manage.py backup [FILE|-]``: the whole site's data in one file (issue 17, finding 7).

Users, groups, encounters and their log, shares, invitations and the bestiary, with natural keys
and without what ``migrate`` rebuilds (content types, permissions) or what is transient (sessions,
login attempts, admin log): see :mod:`calculator.backups`. ``FILE`` ending in ``.gz`` is
gzip-compressed; ``-`` (the default) writes to the standard output.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from calculator import backups
from rulesets.core.french import count


class Command(BaseCommand):
    help = (
        "Sauvegarde toutes les données du site (comptes, rencontres, partages, bestiaire) dans un fichier "
        "JSON que «\u202fmanage.py restore\u202f» recharge\u202f; .gz à la fin du nom\u202f: compressé."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "file",
            nargs="?",
            default="-",
            help="fichier à écrire (remplacé s'il existe\u202f; .json.gz\u202f: compressé), ou - pour la sortie standard",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: str = options["file"]
        document = backups.dump()
        models = len({item["model"] for item in document["objects"]})
        summary = f"{count(document['count'], 'objet')} de {count(models, 'modèle')}"
        if path == "-":
            self.stdout.write(backups.encode(document))
            if options["verbosity"] >= 1:
                self.stderr.write(f"Sauvegarde écrite sur la sortie standard\u202f: {summary}.")
            return
        try:
            backups.write(document, path)
        except backups.BackupError as exc:
            raise CommandError(str(exc)) from None
        if options["verbosity"] >= 1:
            self.stdout.write(f"Sauvegarde écrite dans «\u202f{path}\u202f»\u202f: {summary}.")
