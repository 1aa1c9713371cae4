"""How the Quadrature texts name the adversary and the character (issue 15, items 1 and 2).

Every sentence that names a combatant goes through the toolkit's :class:`~rulesets.core.french.Noun`
(read by :func:`~rulesets.core.french.named`): the name with its grammar, and the words French
agrees with it — the verb (``form("trouve", "trouvent")``), the pronouns (``il``, ``lui``, ``le``),
the possessive (``son("garde", feminine=True)``) and the participles (``agree("épuisé")``).

A name typed with its article (« Le personnage », the page's default character; « La Bête du
Gévaudan », « Les Fanatiques ») is that article and the noun after it; a bare role word of
:data:`ROLE_WORDS` (« Personnage », the encounter's default) is the common noun « le personnage »;
a blank name is « le personnage » or « l'adversaire ».
"""

from __future__ import annotations

from rulesets.core.french import DEFINITE_F, DEFINITE_M, Grammar, Noun, named

# Role words that are common nouns when used as a name (« l'adversaire », « le personnage »).
ROLE_WORDS: dict[str, Grammar] = {
    "personnage": DEFINITE_M,
    "adversaire": DEFINITE_M,
    "créature": DEFINITE_F,
    "monstre": DEFINITE_M,
    "cible": DEFINITE_F,
    "horde": DEFINITE_F,
}


def _who(name: str, grammar: Grammar, blank: str) -> Noun:
    return named(name, grammar, roles=ROLE_WORDS, blank=Noun(blank, ROLE_WORDS[blank]))


def adversary_who(name: str, grammar: Grammar) -> Noun:
    """The adversary: a blank name is « l'adversaire »."""
    return _who(name, grammar, "adversaire")


def pc_who(name: str, grammar: Grammar) -> Noun:
    """The character: a blank name (or the default « Le personnage ») is « le personnage »."""
    return _who(name, grammar, "personnage")
