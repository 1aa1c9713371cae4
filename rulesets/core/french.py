"""French text toolkit: how Estoc writes names, counts, signs and sentences (issue 15).

Every text the engines and the site compose from parts goes through these functions, so that a
story never reads « la parade de Orc », « 1 dégâts » or « -2 degrés »:

- :class:`Grammar` and :class:`Noun` — a name with its article, gender and number, and the forms
  French builds from it: « le Brigand », « l'Orc », « du Brigand », « aux Loups », « d'Aldric »;
- :func:`elide` — « de », « le », « la », « que », « ne », « se »… before a vowel or a mute h;
- :func:`count` and :func:`plural` — « 1 dégât », « 3 dégâts », « 0 case cochée »;
- :func:`signed` — numbers with their sign, the minus being U+2212;
- :func:`typography` — the narrow no-break space before « ; : ! ? » and inside « »;
- :func:`sentences`, :func:`capitalize`, :func:`parenthesize`, :func:`join` — sentences composed
  from parts without double punctuation, a lower-case start or nested parentheses.

Pure and typed: the engines use it, and so do the Django views and exports.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Annotated

from rulesets.core.i18n import _
from rulesets.core.schema import Choice, Spec
from rulesets.core.typography import MINUS, NBSP, NNBSP, typography

__all__ = ["MINUS", "NBSP", "NNBSP", "typography"]  # re-exported: the toolkit is one import


# --------------------------------------------------------------------------- sounds


# Words whose h is aspirated (« le héros », « la harpie »): no elision, no liaison. The list covers
# the creature, weapon and rules vocabulary of the five seeds and the common words around them; a
# name outside it that needs the other reading says so in its grammar (``Elision``).
_ASPIRATED_H = (
    "hache",
    "hachette",
    "haie",
    "haillon",
    "haine",
    "halfelin",
    "halfling",
    "hallebarde",
    "halte",
    "hamac",
    "hameau",
    "hampe",
    "hanche",
    "handicap",
    "hanneton",
    "hareng",
    "harfang",
    "hargne",
    "haricot",
    "harnais",
    "harpe",
    "harpie",
    "harpon",
    "hasard",
    "hâte",
    "hauteur",
    "haut",
    "havre",
    "héron",
    "héros",
    "hérisson",
    "hêtre",
    "hibou",
    "hobbit",
    "hobgobelin",
    "homard",
    "honte",
    "horde",
    "hors",
    "horla",
    "houe",
    "houle",
    "housse",
    "hublot",
    "huée",
    "huit",
    "hulotte",
    "hurlement",
    "hurleur",
    "hussard",
    "hutte",
    "hyène",
)
# Vowel-initial words read with a consonant sound: « le onze », « le yéti », « le ouistiti ».
_CONSONANT_VOWELS = ("onze", "onzième", "ouistiti", "ouate", "yack", "yacht", "yaourt", "yéti", "yeti", "yoga")
_VOWELS = frozenset("aeiouyàâäéèêëîïôöûùüœæ")


def _first_word(text: str) -> str:
    word = re.split(r"[\s'’\-]", text.strip().lstrip('«“"( \u00a0\u202f'), maxsplit=1)[0]
    return word.lower()


def _strip_accents(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


_ASPIRATED_BARE = tuple(_strip_accents(h) for h in _ASPIRATED_H)
_CONSONANT_BARE = tuple(_strip_accents(w) for w in _CONSONANT_VOWELS)


@lru_cache(maxsize=4096)  # a story asks it of the same few names again and again
def starts_with_vowel_sound(text: str) -> bool:
    """True when ``text`` begins with a vowel sound, so that « de », « le », « que »… elide before it.

    A vowel or a mute h (« l'Hydre », « d'Hélène »), but not an aspirated h (« le Héron », « la
    Harpie ») nor a vowel read as a consonant (« le onze », « le yéti »). A digit never elides
    (« de 8 », « le 11 » — « onze » is aspirated too)."""
    word = _first_word(text)
    if not word or not word[0].isalpha():
        return False
    bare = _strip_accents(word)
    if word[0] == "h":
        return not bare.startswith(_ASPIRATED_BARE)
    if any(bare == w or bare.startswith(w + "s") for w in _CONSONANT_BARE):
        return False
    if word[0] == "y":
        return len(word) == 1 or word[1] not in _VOWELS  # « d'Yvain », but « le yéti »
    return word[0] in _VOWELS


# The words that lose their vowel before a vowel sound (« de Orc » → « d'Orc »).
_ELIDING = {
    "de": "d'",
    "le": "l'",
    "la": "l'",
    "que": "qu'",
    "ne": "n'",
    "se": "s'",
    "ce": "c'",
    "je": "j'",
    "me": "m'",
    "te": "t'",
    "jusque": "jusqu'",
    "lorsque": "lorsqu'",
    "puisque": "puisqu'",
    "presque": "presqu'",  # only in « presqu'île »; see elide()
}


def elide(word: str, following: str) -> str:
    """``word`` joined to ``following`` the French way: ``elide("de", "Orc")`` → « d'Orc »,
    ``elide("que", "Aldric")`` → « qu'Aldric », ``elide("de", "Brigand")`` → « de Brigand ».

    The case of ``word`` is kept (« De » → « D' »). « presque » elides only in « presqu'île »."""
    lower = word.lower()
    short = _ELIDING.get(lower)
    elides = short is not None and starts_with_vowel_sound(following)
    if lower == "presque":
        elides = _first_word(following) == "île"
    if not elides or short is None:
        return f"{word} {following}"
    if word[:1].isupper():
        short = short[0].upper() + short[1:]
    return short + following


# --------------------------------------------------------------------------- names


class Gender(Choice):
    MASCULINE = "m"
    FEMININE = "f"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {"m": _("masculin"), "f": _("féminin")}


class Article(Choice):
    """How a name is said: a proper name alone (« Aldric »), or a common noun with « le, la, l' »
    (« le Brigand »), or a plural with « les » (« les Loups »)."""

    PROPER = "propre"
    DEFINITE = "defini"
    PLURAL = "pluriel"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {
            "propre": _("nom propre (Aldric)"),
            "defini": _("le, la, l' (le Brigand)"),
            "pluriel": _("les (les Loups)"),
        }


class Elision(Choice):
    """Whether « de », « le », « la »… elide before the name: by its first letter (a vowel or a mute
    h), or forced where the name is irregular (« le Hobgobelin » — aspirated h; « l'Yéti »…)."""

    AUTO = "auto"
    ALWAYS = "oui"
    NEVER = "non"

    @classmethod
    def labels(cls) -> Mapping[str, str]:
        return {"auto": _("selon la première lettre"), "oui": _("toujours (l'Hydre)"), "non": _("jamais (le Héron)")}


@dataclass(frozen=True, slots=True)
class Grammar:
    """The grammar of a combatant's name: its article, gender and elision (issue 15, item 2)."""

    article: Annotated[Article, Spec(label=_("Article"))] = Article.PROPER
    gender: Annotated[Gender, Spec(label=_("Genre"))] = Gender.MASCULINE
    elision: Annotated[Elision, Spec(label=_("Élision"))] = Elision.AUTO


PROPER_M = Grammar()
PROPER_F = Grammar(gender=Gender.FEMININE)
DEFINITE_M = Grammar(article=Article.DEFINITE)
DEFINITE_F = Grammar(article=Article.DEFINITE, gender=Gender.FEMININE)


@dataclass(frozen=True, slots=True)
class Noun:
    """A name and its grammar, and the phrases French builds from it.

    >>> Noun("Orc", DEFINITE_M).subject, Noun("Orc", DEFINITE_M).de, Noun("Brigand", DEFINITE_M).a
    ("l'Orc", "de l'Orc", 'au Brigand')
    """

    text: str
    grammar: Grammar = field(default_factory=Grammar)
    many: bool = False  # several names said together (« Rübezahl et le Lutin »): plural, no « les »

    @property
    def name(self) -> str:
        """The name as typed (for a label: « Vécu (Sahar) »)."""
        return self.text

    @property
    def feminine(self) -> bool:
        return self.grammar.gender is Gender.FEMININE

    @property
    def plural(self) -> bool:
        return self.many or self.grammar.article is Article.PLURAL

    @property
    def vowel(self) -> bool:
        """Whether the words before the name elide (« l'Orc », « d'Aldric »)."""
        if self.grammar.elision is Elision.ALWAYS:
            return True
        if self.grammar.elision is Elision.NEVER:
            return False
        return starts_with_vowel_sound(self.text)

    def _with(self, word: str) -> str:
        if self.vowel and word in _ELIDING:
            return _ELIDING[word] + self.text
        return f"{word} {self.text}"

    @property
    def subject(self) -> str:
        """« le Brigand », « la Harpie », « l'Orc », « les Loups », « Aldric » (lower case: a sentence
        start is capitalised by :func:`sentences` or :func:`capitalize`)."""
        match self.grammar.article:
            case Article.PROPER:
                return self.text
            case Article.PLURAL:
                return f"les {self.text}"
            case _:
                return self._with("la" if self.feminine else "le")

    @property
    def Subject(self) -> str:
        """The subject at the start of a sentence: « Le Brigand », « L'Orc »."""
        return capitalize(self.subject)

    @property
    def de(self) -> str:
        """« du Brigand », « de la Harpie », « de l'Orc », « des Loups », « d'Aldric », « de Bertrand »."""
        match self.grammar.article:
            case Article.PROPER:
                return self._with("de")
            case Article.PLURAL:
                return f"des {self.text}"
            case _:
                if self.vowel:
                    return f"de l'{self.text}"
                return f"de la {self.text}" if self.feminine else f"du {self.text}"

    @property
    def a(self) -> str:
        """« au Brigand », « à la Harpie », « à l'Orc », « aux Loups », « à Aldric »."""
        match self.grammar.article:
            case Article.PROPER:
                return f"à {self.text}"
            case Article.PLURAL:
                return f"aux {self.text}"
            case _:
                if self.vowel:
                    return f"à l'{self.text}"
                return f"à la {self.text}" if self.feminine else f"au {self.text}"

    @property
    def que(self) -> str:
        """« que le Brigand », « qu'Aldric », « que l'Orc »."""
        return elide("que", self.subject)

    def agree(self, masculine: str, feminine: str | None = None, plural: str | None = None) -> str:
        """The adjective or participle agreed with the name: ``agree("blessé")`` → « blessée » for
        a feminine name, « blessés » for a plural one. Irregular forms are given."""
        if self.plural:
            if plural is not None:
                return plural
            base = (feminine or masculine + "e") if self.feminine else masculine
            return base if base.endswith(("s", "x")) else base + "s"
        if self.feminine:
            return feminine if feminine is not None else (masculine if masculine.endswith("e") else masculine + "e")
        return masculine

    # -- the words that agree with the name --

    def form(self, singular: str, plural: str) -> str:
        """``singular`` or ``plural`` by the name's number: ``form("esquive", "esquivent")``."""
        return plural if self.plural else singular

    def forms(self, masculine: str, feminine: str, masculine_plural: str, feminine_plural: str) -> str:
        """One of four forms by the name's gender and number (« il », « elle », « ils », « elles »)."""
        return (masculine, feminine, masculine_plural, feminine_plural)[2 * self.plural + self.feminine]

    @property
    def il(self) -> str:
        """The subject pronoun: « il », « elle », « ils », « elles »."""
        return self.forms("il", "elle", "ils", "elles")

    @property
    def Il(self) -> str:
        return capitalize(self.il)

    @property
    def lui(self) -> str:
        """The indirect object pronoun: « lui », « leur »."""
        return self.form("lui", "leur")

    @property
    def le(self) -> str:
        """The direct object pronoun: « le », « la », « les »."""
        return "les" if self.plural else "la" if self.feminine else "le"

    def son(self, word: str, feminine: bool = False) -> str:
        """The possessive before a singular noun: « son souffle », « sa garde », « son armure » (« son »
        before a vowel, even feminine); « leur garde » for a plural name."""
        if self.plural:
            return f"leur {word}"
        if feminine and not starts_with_vowel_sound(word):
            return f"sa {word}"
        return f"son {word}"

    def ses(self, things: str) -> str:
        """The possessive before a plural noun: « ses membres », « leurs membres »."""
        return f"{'leurs' if self.plural else 'ses'} {things}"

    def agreed(self, spec: str) -> str:
        """The word ``spec`` agreed with the name, as templates write it:

        - one word, an adjective or participle (a leading « ~ » is allowed): « touché » → « touchée »,
          « touchés », « touchées »;
        - « singular|plural »: « fond|fondent »;
        - « masculine|feminine|plural »: « le|la|les »;
        - « masculine|feminine|masculine plural|feminine plural »: « il|elle|ils|elles ».
        « / » separates the forms as well as « | »."""
        parts = spec.replace("/", "|").split("|")
        match len(parts):
            case 1:
                return self.agree(parts[0].removeprefix("~"))
            case 2:
                return self.form(parts[0], parts[1])
            case 3:
                return parts[2] if self.plural else parts[1] if self.feminine else parts[0]
            case 4:
                return self.forms(parts[0], parts[1], parts[2], parts[3])
        raise ValueError(f"agreement {spec!r}: give 1, 2, 3 or 4 forms")

    _PHRASES = {"": "subject", "S": "Subject", "de": "de", "à": "a", "a": "a", "que": "que", "nom": "text"}

    def __format__(self, spec: str) -> str:
        """A name in a ``str.format`` template: ``{d}`` « le Brigand », ``{d:S}`` « Le Brigand »,
        ``{d:de}``, ``{d:à}``, ``{d:que}``, ``{d:nom}`` (the name alone); any other spec is a word
        agreed with the name (:meth:`agreed`): ``{d:esquive|esquivent}``, ``{d:blessé}``."""
        phrase = self._PHRASES.get(spec)
        if phrase is not None:
            return str(getattr(self, phrase))
        return self.agreed(spec)

    def __getitem__(self, spec: str) -> str:
        """``{d[touché]}``, ``{d[fond|fondent]}``: the same as :meth:`agreed`."""
        return self.agreed(spec)

    def __str__(self) -> str:
        return self.subject


def noun(text: str, grammar: Grammar | None = None) -> Noun:
    return Noun(text, grammar or Grammar())


def together(nouns: Sequence[Noun]) -> Noun:
    """Several names said together: « Rübezahl et le Lutin », plural; feminine only when every one is
    (« la Pixie et la Harpie »). One name is itself."""
    if len(nouns) == 1:
        return nouns[0]
    feminine = bool(nouns) and all(n.feminine for n in nouns)
    return Noun(
        join([n.subject for n in nouns]), Grammar(gender=Gender.FEMININE if feminine else Gender.MASCULINE), many=True
    )


# The role words the pages and encounters give a combatant by default, common nouns when used as a
# name (« l'attaquant », « le personnage 2 »): for a caller that does not know the ruleset (a share's
# title, an encounter's log title); a ruleset passes its own table.
ROLE_NOUNS: Mapping[str, Grammar] = {
    "attaquant": DEFINITE_M,
    "défenseur": DEFINITE_M,
    "combattant": DEFINITE_M,
    "personnage": DEFINITE_M,
    "adversaire": DEFINITE_M,
    "aventurier": DEFINITE_M,
    "monstre": DEFINITE_M,
    "créature": DEFINITE_F,
    "cible": DEFINITE_F,
    "horde": DEFINITE_F,
}

_TYPED_ARTICLES: tuple[tuple[str, Article, Gender | None, bool], ...] = (
    ("les ", Article.PLURAL, None, False),
    ("le ", Article.DEFINITE, Gender.MASCULINE, False),
    ("la ", Article.DEFINITE, Gender.FEMININE, False),
    ("l'", Article.DEFINITE, None, True),
    ("l’", Article.DEFINITE, None, True),
)
_NUMBERED = re.compile(r"^(?P<word>.+?)(?P<number>\s+(?:n°\s*)?\d+)?$")


def named(
    name: str, grammar: Grammar, *, roles: Mapping[str, Grammar] | None = None, blank: Noun | None = None
) -> Noun:
    """The noun a combatant's name reads as in a story.

    - A blank name is ``blank`` (a role: « le personnage », « l'attaquant »).
    - A name typed with its article (« Le personnage », « La Bête du Gévaudan », « L'Ogre », « Les
      Fanatiques ») is that article and the noun after it, whatever its grammar says: never « contre
      Le personnage » nor « du Le personnage ».
    - A role word of ``roles`` (« Attaquant », « Monstre 2 », the defaults a page or an encounter
      gives) is that common noun in lower case, with the role's grammar (the given gender and a plural
      article are kept): « l'attaquant », « le monstre 2 », never « frappe Attaquant ».
    - Any other name is itself, with its grammar.

    >>> named("Le personnage", Grammar()).subject, named("Aldric", Grammar()).de
    ('le personnage', "d'Aldric")
    """
    return _named(name, grammar, tuple(roles.items()) if roles else (), blank)


@lru_cache(maxsize=4096)  # a story names the same few combatants again and again
def _named(name: str, grammar: Grammar, role_items: tuple[tuple[str, Grammar], ...], blank: Noun | None) -> Noun:
    roles = dict(role_items)
    text = " ".join(name.split())
    if not text:
        return blank if blank is not None else Noun(text, grammar)
    lower = text.lower()
    for article, kind, gender, elided in _TYPED_ARTICLES:
        rest = text[len(article) :].strip()
        if lower.startswith(article) and rest:
            if rest.lower() in roles:
                rest = rest.lower()
            elision = Elision.ALWAYS if elided else grammar.elision
            return Noun(rest, Grammar(article=kind, gender=gender or grammar.gender, elision=elision))
    m = _NUMBERED.match(text)
    word, number = (m.group("word"), m.group("number") or "") if m else (text, "")
    role = roles.get(word.lower())
    if role is not None:
        article = Article.PLURAL if grammar.article is Article.PLURAL else role.article
        gender = grammar.gender if grammar.article is not Article.PROPER else role.gender
        said = plural(word.lower()) if article is Article.PLURAL else word.lower()  # « les monstres »
        return Noun(said + number, Grammar(article=article, gender=gender, elision=role.elision))
    return Noun(text, grammar)


@dataclass(frozen=True, slots=True)
class Counted:
    """A count in a ``str.format`` template: ``{n}`` « 3 dégâts », ``{n:vole|volent}`` a word agreed
    with the count, ``{n:mot}`` the noun alone (« dégâts »)."""

    n: float
    singular: str
    plural: str | None = None

    @property
    def word(self) -> str:
        return words(self.n, self.singular, self.plural)

    def __format__(self, spec: str) -> str:
        if spec == "":
            return count(self.n, self.singular, self.plural)
        if spec == "mot":
            return self.word
        parts = spec.replace("/", "|").split("|")
        if len(parts) == 2:
            return parts[1] if is_plural_count(self.n) else parts[0]
        raise ValueError(f"count spec {spec!r}: give « singular|plural » or « mot »")

    def __str__(self) -> str:
        return count(self.n, self.singular, self.plural)


# --------------------------------------------------------------------------- counts and signs

_INVARIABLE_ENDINGS = ("s", "x", "z")
_PREPOSITIONS = frozenset({"de", "d'", "du", "des", "à", "au", "aux", "en", "par", "sur", "contre", "pour"})
_AL_S = frozenset({"bal", "carnaval", "chacal", "festival", "récital", "régal", "val"})
_EU_S = frozenset({"bleu", "pneu", "émeu", "landau", "sarrau"})
_OU_X = frozenset({"bijou", "caillou", "chou", "genou", "hibou", "joujou", "pou"})
_UNCOUNTED = frozenset({"stamina", "ka", "pv", "px", "phys", "mag", "d6", "d10", "d20", "d100"})
_ADVERBS = frozenset({"non", "plus", "très", "bien", "mal", "trop", "peu", "hors", "sans", "déjà", "encore", "pas"})


def _plural_word(word: str) -> str:
    lower = word.lower()
    if (
        not word
        or not word[0].isalpha()
        or lower in _UNCOUNTED
        or lower in _ADVERBS
        or (word.isupper() and len(word) > 1)
    ):
        return word
    if lower.endswith(_INVARIABLE_ENDINGS):
        return word
    if lower.endswith("al") and lower not in _AL_S:
        return word[:-2] + "aux"
    if lower.endswith(("au", "eau", "eu")) and lower not in _EU_S:
        return word + "x"
    if lower in _OU_X:
        return word + "x"
    if lower == "œil":
        return "yeux"
    return word + "s"


def plural(phrase: str) -> str:
    """The plural of a noun phrase: every word before the first preposition agrees (« case cochée »
    → « cases cochées », « point d'Essence » → « points d'Essence », « dé bleu » → « dés bleus »).
    Irregular phrases are given to :func:`count` whole."""
    words = phrase.split(" ")
    out: list[str] = []
    for i, word in enumerate(words):
        if word.lower() in _PREPOSITIONS or "'" in word or "’" in word:
            out.extend(words[i:])
            break
        out.append(_plural_word(word))
    return " ".join(out)


def is_plural_count(n: float) -> bool:
    """French counts agree in the plural from 2: « 0 dégât », « 1,5 point », « 2 dégâts »."""
    return abs(n) >= 2


def count(n: float, singular: str, plural_form: str | None = None, *, number: str | None = None) -> str:
    """« 1 dégât », « 3 dégâts », « 0 case cochée », « 2 cases cochées »: the number, a no-break
    space and the noun agreed with it. ``number`` is the number as written when it is not ``n``
    itself (« −2 degrés »)."""
    word = (plural_form or plural(singular)) if is_plural_count(n) else singular
    shown = number if number is not None else (signed(n, plus="") if n < 0 else _plain(n))
    return f"{shown}{NBSP}{word}"


def words(n: float, singular: str, plural_form: str | None = None) -> str:
    """The noun alone, agreed with ``n`` (« attaque » / « attaques »)."""
    return (plural_form or plural(singular)) if is_plural_count(n) else singular


def _plain(n: float) -> str:
    if isinstance(n, int) or float(n).is_integer():
        return str(int(n))
    return f"{n}".replace(".", ",")


def signed(n: float, *, plus: str = "+", zero: str | None = None) -> str:
    """« +2 », « −2 » (U+2212, never the hyphen), « +0 » (or ``zero``)."""
    if n == 0 and zero is not None:
        return zero
    if n < 0:
        return f"{MINUS}{_plain(-n)}"
    return f"{plus}{_plain(n)}"


# --------------------------------------------------------------------------- composition


def capitalize(text: str) -> str:
    """The first letter in upper case, whatever opens the text (« « », a parenthesis, an emoji):
    « l'Orc frappe » → « L'Orc frappe »; the rest is left as written."""
    if text[:1].isalpha():  # the usual case, without the loop
        return text[0].upper() + text[1:]
    for i, char in enumerate(text):
        if char.isalpha():
            return text[:i] + char.upper() + text[i + 1 :]
        if char.isdigit():
            return text
    return text


_TERMINAL = (".", "!", "?", "…")
_CLOSERS = '»"”’'  # not ")": « … (invoc.) » still needs its full stop


def _ends_sentence(text: str) -> bool:
    stripped = text.rstrip().rstrip(_CLOSERS + NNBSP + NBSP + " ")
    return stripped.endswith(_TERMINAL)


def sentence(text: str) -> str:
    """One sentence from a part: trimmed, capitalised, one final full stop unless it already ends
    with « . ! ? … », and no dangling comma or colon before it."""
    text = text.strip()
    if not text:
        return ""
    text = capitalize(text)
    if _ends_sentence(text):
        return text
    return text.rstrip(" ,;:" + NNBSP + NBSP) + "."


def sentences(parts: Iterable[str]) -> str:
    """Sentences composed from parts (a situation typed by the game master, a weapon's sound, a
    rule's consequence), each made a :func:`sentence`, joined by a space: never « …hache. sous la
    pluie. » nor « .. »."""
    return " ".join(s for s in (sentence(p) for p in parts) if s)


def join(items: Sequence[str], last: str | None = None) -> str:
    """« a », « a et b », « a, b et c » (``last`` replaces « et », e.g. « ou »)."""
    items = [i for i in items if i]
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {last or _('et')} " + items[-1]


_INNER_PAREN = re.compile(r"\s*\(([^()]*)\)")


def parenthesize(inner: str) -> str:
    """``inner`` in parentheses, its own parentheses turned into commas: « tir (visée 1r) » →
    « (tir, visée 1r) », never « (tir (visée 1r)) »."""
    flat = inner.strip()
    while "(" in flat:
        new = _INNER_PAREN.sub(lambda m: ", " + m.group(1).strip(), flat)
        if new == flat:
            flat = flat.replace("(", "").replace(")", "")
            break
        flat = new
    return f"({flat.lstrip(', ')})"


def quote(text: str) -> str:
    """« text », with narrow no-break spaces inside the guillemets."""
    return f"«{NNBSP}{text.strip()}{NNBSP}»"
