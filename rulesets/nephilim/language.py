"""How the Nephilim texts say a combatant (issue 15): its name with its grammar, for the story, the
scene, the technical labels and the encounter log.

A combatant is the toolkit's :class:`~rulesets.core.french.Noun`, which formats itself in the
``str.format`` templates: ``{d}`` the subject mid-sentence (« le Garde du corps », « l'Orc »,
« Sahar », « les Loups »), ``{d.Subject}`` at a sentence start, ``{d.de}``, ``{d.a}``, ``{d.que}``;
``{d:esquive/esquivent}`` a word agreed with the name's number, ``{d:il/elle/ils/elles}`` with its
gender and number, ``{d:~blessé}`` an adjective or participle agreed by the toolkit.

A role name (:data:`ROLES`, the defaults of the model and the encounter) or a blank name reads as the
role: a common noun, in lower case with its article (« l'attaquant », « le défenseur »), never
« contre Défenseur ».
"""

from __future__ import annotations

from functools import lru_cache

from rulesets.core.french import DEFINITE_M, Grammar, Noun, named
from rulesets.core.i18n import _

# The role names a blank name reads as (model defaults, encounter default): common nouns.
ROLES = ("Attaquant", "Défenseur", "Combattant")


def who(name: str, grammar: Grammar | None = None) -> Noun:
    """The noun of a combatant's name (:func:`~rulesets.core.french.named` over :data:`ROLES`)."""
    return _who(name, grammar or Grammar(), _("combattant"))


@lru_cache(maxsize=2048)  # a resolution names its few combatants a dozen times; ``blank`` keys the language
def _who(name: str, grammar: Grammar, blank: str) -> Noun:
    roles = {_(role).lower(): DEFINITE_M for role in ROLES}
    return named(name, grammar, roles=roles, blank=Noun(blank, DEFINITE_M))
