"""``manage.py resolve <slug> [FILE|-]``: the API's resolve (or odds) request from a file or stdin."""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from calculator import json_input, services
from rulesets.core.registry import load_all
from rulesets.core.request import odds_data, result_data
from rulesets.core.schema import ScenarioError, Source

EXIT_INVALID = 2


class Command(BaseCommand):
    help = "Résout une requête JSON (celle de l'API) et écrit le résultat JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="système de règles (encore, nephilim…)")
        parser.add_argument(
            "file", nargs="?", default="-", help="fichier JSON de la requête, ou - pour l'entrée standard"
        )
        parser.add_argument("--odds", action="store_true", help="probabilités exactes au lieu d'une résolution")
        parser.add_argument("--indent", type=int, default=2, help="indentation du JSON (0\u202f: une ligne)")

    def handle(self, *args: Any, **options: Any) -> None:
        rulesets = load_all()
        slug = options["slug"]
        if slug not in rulesets:
            raise CommandError(
                f"Système de règles inconnu\u202f: «\u202f{slug}\u202f» (disponibles\u202f: {', '.join(rulesets)})."
            )
        ruleset = rulesets[slug]
        source = options["file"]
        try:
            text = sys.stdin.read() if source == "-" else open(source, encoding="utf-8").read()  # noqa: SIM115
        except OSError as exc:
            raise CommandError(f"Impossible de lire «\u202f{source}\u202f»\u202f: {exc.strerror}.") from None
        indent = options["indent"] or None
        try:
            try:  # nesting bounded, numbers finite, as the API reads its body
                payload = json_input.loads(text)
            except json_input.JsonRefused as exc:
                raise ScenarioError({"__all__": exc.message}) from None
            if options["odds"]:
                _scenario, odds = services.odds_compute(ruleset=ruleset, payload=payload, source=Source.JSON)
                out = odds_data(ruleset, odds)
            else:
                out = result_data(services.resolution_resolve(ruleset=ruleset, payload=payload, source=Source.JSON))
        except ScenarioError as exc:
            self.stderr.write(
                json.dumps({"message": "Requête invalide.", "errors": exc.errors}, ensure_ascii=False, indent=indent)
            )
            sys.exit(EXIT_INVALID)
        self.stdout.write(json.dumps(out, ensure_ascii=False, indent=indent))
