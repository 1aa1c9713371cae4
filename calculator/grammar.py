"""How a combatant's name is said, as one line of the page (issue 15): « se dit « l'Orc » (masculin) »,
for the « Ajuster » summary that holds the name's grammar fields."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from rulesets.core.french import ROLE_NOUNS, Article, Elision, Gender, Grammar, Noun, named, quote


def grammar_of(values: Mapping[str, Any], prefix: str = "grammar.") -> Grammar | None:
    """The grammar read from raw form values (``{prefix}article`` …), or None when one is invalid."""
    try:
        return Grammar(
            article=Article(str(values.get(f"{prefix}article") or Article.PROPER.value)),
            gender=Gender(str(values.get(f"{prefix}gender") or Gender.MASCULINE.value)),
            elision=Elision(str(values.get(f"{prefix}elision") or Elision.AUTO.value)),
        )
    except ValueError:
        return None


def noun_of(name: str, holder: Any) -> Noun:
    """``name`` as the story says it, with the grammar its holder gives it: a scenario or encounter
    state (a mapping with a ``grammar`` object, or a dataclass with a ``grammar`` field); without
    one, a proper name (« Aldric »), the schema's default. A default role name (« Attaquant »,
    « Personnage 2 ») is a common noun: « l'attaquant », « le personnage 2 »."""
    said = holder.get("grammar") if isinstance(holder, Mapping) else getattr(holder, "grammar", None)
    if isinstance(said, Grammar):
        return named(name, said, roles=ROLE_NOUNS)
    grammar = grammar_of(said, prefix="") if isinstance(said, Mapping) else None
    return named(name, grammar or Grammar(), roles=ROLE_NOUNS)


def describe_grammar(name: str, values: Mapping[str, Any], prefix: str = "grammar.") -> str:
    """« se dit « l'Orc », au masculin » · « se dit « Aldric », au féminin »."""
    grammar = grammar_of(values, prefix)
    if grammar is None:
        return _("grammaire du nom à corriger")
    said = Noun(name.strip() or _("ce nom"), grammar).subject
    gender = _("au féminin") if grammar.gender is Gender.FEMININE else _("au masculin")
    return _("se dit {said}, {gender}").format(said=quote(said), gender=gender)
