"""Aventuriers — how the texts name a figure and count (issue 15), with the French toolkit
(:mod:`rulesets.core.french`).

The scene, the récit, the technical labels and the encounter's lines are format strings; the names
they take are the toolkit's :class:`~rulesets.core.french.Noun` (``{a}`` « l'Orc », ``{a:S}``,
``{a:de}``, ``{a:à}``, ``{a:avance|avancent}``, ``{a:blessé|blessée|blessés|blessées}``) and the
counts its :class:`~rulesets.core.french.Counted` (``{n}`` « 3 dégâts », ``{n:menace|menacent}``).

A figure is one figurine, but its name may still be said in the plural (« les Ombres ») when the
game master's grammar says so: every verb and pronoun follows.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from rulesets.aventuriers.model import Fighter, Side
from rulesets.core.french import DEFINITE_F, DEFINITE_M, Counted, Gender, Grammar, Noun, named, plural
from rulesets.core.i18n import _


def figure_noun(name: str, grammar: Grammar, *, monster: bool = False) -> Noun:
    """The name of a figure as the texts say it (issue 15, « contre Le personnage »).

    A name typed by the game master is said with its grammar (« Elwen », « le Gobelin »). A role
    name — the blank name, or the default « Aventurier » and « Monstre » of the page and of the
    encounter, numbered or not (« Monstre 2 ») — is a common noun (:func:`~rulesets.core.french.named`):
    « l'aventurier », « le monstre 2 », never « frappe Aventurier »; and « l'aventurière » for a
    feminine grammar, the one role word with a feminine form."""
    return _figure_noun(name, grammar, monster, _("aventurier"))


@lru_cache(maxsize=2048)  # the texts name the same two figures again and again; ``adventurer`` keys the language
def _figure_noun(name: str, grammar: Grammar, monster: bool, adventurer: str) -> Noun:
    adventuress, beast = _("aventurière"), _("monstre")
    feminine = grammar.gender is Gender.FEMININE
    roles = {adventurer: DEFINITE_F if feminine else DEFINITE_M, adventuress: DEFINITE_F, beast: DEFINITE_M}
    noun = named(" ".join(name.split()) or (beast if monster else adventurer), grammar, roles=roles)
    first, space, rest = noun.text.partition(" ")
    if noun.feminine and first in (adventurer, plural(adventurer)):
        return replace(noun, text=first.replace(adventurer, adventuress) + space + rest)
    return noun


def fighter(f: Fighter) -> Noun:
    """A fighter of the page's scenario, by its name and grammar."""
    return figure_noun(f.name, f.grammar, monster=f.side is Side.MONSTRE)


def damage_count(n: int, flash: bool = False) -> Counted:
    """« 1 dégât », « 3 dégâts »; « 1 dégât-éclair », « 4 dégâts-éclairs »."""
    if flash:
        return Counted(n, _("dégât-éclair"), _("dégâts-éclairs"))
    return Counted(n, _("dégât"))


def dice_count(n: int) -> Counted:
    return Counted(n, _("dé"))


def pv_count(n: int) -> Counted:
    return Counted(n, _("PV"))
