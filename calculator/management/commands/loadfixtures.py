"""``manage.py loadfixtures``: load every ``fixtures/*.json`` whose tables are still empty.

Run by ``make run`` each time: the first run fills the bestiary; later runs keep what an admin
edited. ``--force`` reloads every file (rows with the fixtures' primary keys are overwritten).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser


class Command(BaseCommand):
    help = "Charge les fixtures du bestiaire (fixtures/*.json) dont les tables sont vides."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--force", action="store_true", help="recharger même si les tables sont remplies")

    def handle(self, *args: Any, **options: Any) -> None:
        for path in sorted(Path(settings.BASE_DIR, "fixtures").glob("*.json")):
            labels = {row["model"] for row in json.loads(path.read_text(encoding="utf-8"))}
            filled = [label for label in labels if apps.get_model(label).objects.exists()]
            if filled and not options["force"]:
                self.stdout.write(f"{path.name}\u202f: déjà chargé ({', '.join(sorted(filled))}), ignoré.")
                continue
            call_command("loaddata", str(path), verbosity=0)
            self.stdout.write(f"{path.name}\u202f: chargé.")
