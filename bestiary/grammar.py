"""The grammar of a bestiary name (issue 15, item 2): article, gender and elision, as fields of
every bestiary row that names a combatant, so that the story says « l'Orc », « la Harpie », « le
Héron » and « du Brigand » rather than « de Orc » or « frappe Brigand ».

A new row defaults to a masculine common noun with its article (« le Brigand »), elided by its
first letter; the admin changes it where the name is a proper name, feminine, plural or irregular.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _

from rulesets.core.french import Article, Elision, Gender, Grammar, Noun


def _choices(choice: Any) -> list[tuple[str, str]]:
    return [(m.value, m.label) for m in choice]


class NameGrammar(models.Model):
    """Abstract: the three grammar fields of a row's ``name``."""

    article = models.CharField(
        _("article"),
        max_length=8,
        choices=_choices(Article),
        default=Article.DEFINITE.value,
        help_text=_("Comment le récit dit ce nom : « Aldric », « le Brigand », « les Loups »."),
    )
    gender = models.CharField(_("genre"), max_length=1, choices=_choices(Gender), default=Gender.MASCULINE.value)
    elision = models.CharField(
        _("élision"),
        max_length=4,
        choices=_choices(Elision),
        default=Elision.AUTO.value,
        help_text=_("« l'Orc » mais « le Héron » : à forcer si la première lettre trompe (h aspiré)."),
    )

    class Meta:
        abstract = True

    @property
    def grammar(self) -> Grammar:
        return Grammar(article=Article(self.article), gender=Gender(self.gender), elision=Elision(self.elision))

    @property
    def noun(self) -> Noun:
        return Noun(str(getattr(self, "name", "")), self.grammar)

    def grammar_data(self) -> dict[str, str]:
        """The scenario's ``grammar`` object of this name."""
        return {"article": self.article, "gender": self.gender, "elision": self.elision}

    def grammar_values(self, prefix: str = "grammar.") -> dict[str, str]:
        """The same, flattened under ``prefix`` (a preset's values)."""
        return {f"{prefix}{k}": v for k, v in self.grammar_data().items()}
