"""The text lint of issue 15: what a careful French writer would never let through.

``problems(text)`` lists each fault found in a text the product shows (a scene, a récit, a
technical label, an export, a message), with the words around it:

- « de », « le », « la », « que »… before a vowel or a mute h (« la parade de Orc »);
- « (s) », « (e) », « (es) » plurals;
- an ASCII hyphen used as a minus sign (« -2 degrés »);
- nested parentheses (« (tir (visée 1r)) »);
- a lower-case letter after a full stop (« …hache. sous la pluie »);
- a capitalised article or common noun mid-sentence (« contre Le personnage »);
- a missing no-break space before « ; : ! ? » or inside « »;
- double punctuation (« .. », « ., », « : . »);
- a count that does not agree (« 1 dégâts », « 3 dégât »).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from hypothesis import strategies as st

from rulesets.core.french import Article, Elision, Gender, Grammar, starts_with_vowel_sound

_ELIDING = r"de|le|la|que|ne|se|ce|je|me|te|jusque|lorsque|puisque"
_ELISION = re.compile(rf"(?<![\w'’-])({_ELIDING}) ([\w][\w'’-]*)", re.IGNORECASE)
_CONJUNCTIONS = frozenset({"ou", "et"})
_PLURAL_MARK = re.compile(r"\((?:s|e|es|x|nt)\)")
_ASCII_MINUS = re.compile(r"(?:^|(?<=[\s(\[:=→/;,]))-(?=\d)")
_LOWER_AFTER_STOP = re.compile(r"(?<![.…\w»)])([\w»)]*)\.[ \u00a0\u202f]+([a-zà-ÿœ])")
_ABBREVIATIONS = frozenset(
    {"etc", "cf", "p", "déf", "att", "dég", "env", "max", "min", "vol", "éd", "av", "apr", "ex", "n°"}
)
_CAPITAL_ARTICLE = re.compile(r"(?<=[a-zà-ÿœ,] )(Le|La|Les|L'|L’|Un|Une|Du|Des)(?=[\s\u00a0'’])")
_COMMON_NOUNS = (
    "Attaquant",
    "Défenseur",
    "Personnage",
    "Adversaire",
    "Créature",
    "Cible",
    "Monstre",
    "Joueur",
)
_CAPITAL_NOUN = re.compile(rf"(?<=[a-zà-ÿœ,'’] )(?:l['’])?({'|'.join(_COMMON_NOUNS)})s?\b")
_CAPITAL_NOUN_ELIDED = re.compile(rf"(?<=[a-zà-ÿœ,] )[ld]['’]({'|'.join(_COMMON_NOUNS)})s?\b")
_BEFORE_PUNCT = re.compile(r"(.)([;:!?])(?=[\s\"»)\]]|$)")
_GUILLEMET_OPEN = re.compile(r"«(?![\u202f\u00a0])")
_GUILLEMET_CLOSE = re.compile(r"(?<![\u202f\u00a0])»")
_DOUBLE_PUNCT = re.compile(r"(?<!\.)\.\.(?!\.)|[,;:][ \u00a0\u202f]*[.,;:]|\.[ \u00a0\u202f]*[,;:]|\s[.,](?!\d)")
_SINGULAR_COUNT = re.compile(r"(?<![\d,.\u2212+°-])[01][ \u00a0]([a-zà-ÿ]+s)\b")  # not a number « n°1 »
_INVARIABLE = frozenset(
    {"fois", "succès", "pas", "dos", "bras", "corps", "temps", "avis", "cas", "prix", "repos", "poids", "plus"}
    | {"mois", "jours", "sens", "souris", "abus", "accès", "excès", "procès", "os", "ours", "pouls", "ras"}
)
_PLURAL_COUNT = re.compile(
    r"(?<![\w,.°])(?:[2-9]|[1-9]\d+)[ \u00a0]"  # not a die's name (« D100 attaque »), nor « n°12 attaque »
    r"(dégât|point|case|dé|round|attaque|degré|rang|blessure|cible|angle|activité|défenseur|action|tour)\b(?![s'’-])"
)


_M, _F = Gender.MASCULINE, Gender.FEMININE
_DEF, _PROPER, _PLURAL = Article.DEFINITE, Article.PROPER, Article.PLURAL

# Names of every gender, article and initial sound, for the hypothesis variations of each ruleset:
# a vowel, a mute h, an aspirated h the toolkit knows, one it does not (forced by its grammar), a
# consonant, a vowel read as a consonant, proper names, plurals.
NAMES: tuple[tuple[str, Grammar], ...] = (
    ("Orc", Grammar(_DEF, _M)),
    ("Ondine", Grammar(_DEF, _F)),
    ("Écorcheur", Grammar(_DEF, _M)),
    ("Hydre", Grammar(_DEF, _F)),
    ("Homme-lézard", Grammar(_DEF, _M)),
    ("Harpie", Grammar(_DEF, _F)),
    ("Héron", Grammar(_DEF, _M)),
    ("Hurlevent", Grammar(_DEF, _M, Elision.NEVER)),
    ("Brigand", Grammar(_DEF, _M)),
    ("Chien de garde", Grammar(_DEF, _M)),
    ("Sorcière", Grammar(_DEF, _F)),
    ("Yéti", Grammar(_DEF, _M)),
    ("Aldric", Grammar(_PROPER, _M)),
    ("Elwen", Grammar(_PROPER, _F)),
    ("Isaure", Grammar(_PROPER, _F)),
    ("Ulric", Grammar(_PROPER, _M)),
    ("Hélène", Grammar(_PROPER, _F)),
    ("Bertrand", Grammar(_PROPER, _M)),
    ("Loups des cendres", Grammar(_PLURAL, _M)),
    ("Ombres", Grammar(_PLURAL, _F)),
    ("Arbalétriers", Grammar(_PLURAL, _M)),
)
NO_ELISION = ("Hurlevent",)


def grammatical_names() -> st.SearchStrategy[tuple[str, Grammar]]:
    """One of :data:`NAMES`: ``(name, grammar)``."""
    return st.sampled_from(NAMES)


def grammar_data(grammar: Grammar) -> dict[str, str]:
    """A grammar as a scenario's JSON object."""
    return {"article": grammar.article.value, "gender": grammar.gender.value, "elision": grammar.elision.value}


def _context(text: str, start: int, end: int) -> str:
    return text[max(0, start - 30) : end + 30].replace("\n", " ")


def problems(text: str, *, no_elision: Iterable[str] = NO_ELISION) -> list[str]:
    """Every fault of ``text``, each as « kind: …words around… ». ``no_elision`` lists names whose
    grammar forbids elision (an aspirated h the toolkit's list does not know)."""
    found: list[str] = []
    kept = tuple(no_elision)

    def add(kind: str, m: re.Match[str]) -> None:
        found.append(f"{kind}: {_context(text, m.start(), m.end())!r}")

    for m in _ELISION.finditer(text):
        following = m.group(2)
        if following.lower() in _CONJUNCTIONS:  # « le ou les défenseurs », « la et le »: no elision
            continue
        if starts_with_vowel_sound(following) and not any(following.startswith(k) for k in kept):
            add("élision manquante", m)
    for m in _PLURAL_MARK.finditer(text):
        add("pluriel « (s) »", m)
    for m in _ASCII_MINUS.finditer(text):
        add("trait d'union pour un signe moins", m)
    depth = 0
    for i, char in enumerate(text):
        if char == "(":
            depth += 1
            if depth > 1:
                found.append(f"parenthèses imbriquées: {_context(text, i, i + 1)!r}")
        elif char == ")":
            depth = max(0, depth - 1)
    for m in _LOWER_AFTER_STOP.finditer(text):
        if m.group(1).lower() not in _ABBREVIATIONS:
            add("minuscule après un point", m)
    for m in _CAPITAL_ARTICLE.finditer(text):
        add("majuscule au milieu d'une phrase", m)
    for rx in (_CAPITAL_NOUN, _CAPITAL_NOUN_ELIDED):
        for m in rx.finditer(text):
            add("nom commun en majuscule au milieu d'une phrase", m)
    for m in _BEFORE_PUNCT.finditer(text):
        if m.group(1) not in "\u202f\u00a0" and not (m.group(2) == ":" and m.group(1).isdigit()):
            add(f"espace insécable manquante avant « {m.group(2)} »", m)
    for rx in (_GUILLEMET_OPEN, _GUILLEMET_CLOSE):
        for m in rx.finditer(text):
            add("espace insécable manquante dans « »", m)
    for m in _DOUBLE_PUNCT.finditer(text):
        add("ponctuation double ou mal placée", m)
    for m in _SINGULAR_COUNT.finditer(text):
        if m.group(1) not in _INVARIABLE and not m.group(1).endswith("ss"):
            add("accord avec le nombre", m)
    for m in _PLURAL_COUNT.finditer(text):
        add("accord avec le nombre", m)
    return found


def assert_clean(texts: Iterable[tuple[str, str]], *, no_elision: Iterable[str] = NO_ELISION) -> None:
    """Fail with every fault of every ``(where, text)`` pair, not only the first."""
    kept = tuple(no_elision)
    faults = [f"{where}: {p}" for where, text in texts for p in problems(text, no_elision=kept)]
    assert not faults, f"{len(faults)} fautes de français :\n" + "\n".join(faults[:80])
