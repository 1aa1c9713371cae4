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


class Command(BaseCommand):
    help = (
        "Sauvegarde toutes les données du site (comptes, rencontres, partages, bestiaire) dans un fichier "
        "JSON que « manage.py restore » recharge ; .gz à la fin du nom : compressé."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "file",
            nargs="?",
            default="-",
            help="fichier à écrire (remplacé s'il existe ; .json.gz : compressé), ou - pour la sortie standard",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: str = options["file"]
        document = backups.dump()
        models = len({item["model"] for item in document["objects"]})
        summary = f"{document['count']} objet(s) de {models} modèle(s)"
        if path == "-":
            self.stdout.write(backups.encode(document))
            if options["verbosity"] >= 1:
                self.stderr.write(f"Sauvegarde écrite sur la sortie standard : {summary}.")
            return
        try:
            backups.write(document, path)
        except backups.BackupError as exc:
            raise CommandError(str(exc)) from None
        if options["verbosity"] >= 1:
            self.stdout.write(f"Sauvegarde écrite dans « {path} » : {summary}.")
