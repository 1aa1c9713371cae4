"""How the Féerie texts name a combatant (issue 15, items 1 and 3): the toolkit's
:class:`~rulesets.core.french.Noun`, and the words of a sentence that agree with it.

A story template names its combatants through ``str.format`` fields: ``{a.Subject}`` at the start of
a sentence (« Le Wichtln », « L'Ogre », « Rübezahl »), ``{d.subject}`` elsewhere, ``{d.de}``
(« du Lutin », « de l'Ogre »), ``{d.a}`` (« au Lutin »), ``{d.que}``; and ``{d[…]}`` for a word that
agrees with the name (:meth:`~rulesets.core.french.Noun.agreed`): ``{d[touché]}``,
``{d[fond|fondent]}``, ``{d[le|la|les]}``, ``{d[il|elle|ils|elles]}``. Several combatants said
together are :func:`~rulesets.core.french.together`.
"""

from __future__ import annotations

from rulesets.core.french import DEFINITE_M, Grammar, Noun, named


def who(name: str, grammar: Grammar, fallback: str, fallback_grammar: Grammar = DEFINITE_M) -> Noun:
    """The combatant as the story names it: its name with its grammar, or, without a name, the role
    noun ``fallback`` (« l'attaquant », « le défenseur ») with its own grammar."""
    return named(name, grammar, blank=Noun(fallback, fallback_grammar))
