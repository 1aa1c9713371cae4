"""Issue 15: how the site's own texts say a combatant's name (calculator/grammar.py) — the
« Ajuster » summary of a name's grammar, a name read with the grammar its scenario or state gives
it, a proper name that opens with its article, and the lists of names of the link previews."""

import pytest

from calculator.grammar import describe_grammar, grammar_of, noun_of
from calculator.share_previews import french_list
from rulesets.core.french import DEFINITE_F, DEFINITE_M, NNBSP, Article, Gender, Grammar, Noun, named
from tests.french_lint import NAMES, grammar_data, problems


def test_the_grammar_summary_says_how_the_name_is_said():
    values = {"grammar.article": "defini", "grammar.gender": "m", "grammar.elision": "auto"}
    assert describe_grammar("Orc", values) == f"se dit «{NNBSP}l'Orc{NNBSP}», au masculin"
    values = {"grammar.article": "propre", "grammar.gender": "f", "grammar.elision": "auto"}
    assert describe_grammar("Elwen", values) == f"se dit «{NNBSP}Elwen{NNBSP}», au féminin"
    assert describe_grammar("Orc", {"grammar.article": "nope"}) == "grammaire du nom à corriger"
    assert grammar_of({"g.article": "pluriel"}, prefix="g.") == Grammar(article=Article.PLURAL)


@pytest.mark.parametrize(("name", "grammar"), NAMES)
def test_a_name_is_read_with_the_grammar_its_holder_gives(name, grammar):
    """A scenario's JSON object, or a dataclass with a ``grammar`` field: the same noun."""
    from_json = noun_of(name, {"name": name, "grammar": grammar_data(grammar)})
    assert from_json == Noun(name, grammar)

    class State:
        pass

    state = State()
    state.grammar = grammar
    assert noun_of(name, state) == Noun(name, grammar)
    assert problems(f"La parade {from_json.de} échoue contre {from_json.subject}.") == []


def test_without_a_grammar_a_name_is_a_proper_name():
    assert noun_of("Aldric", {"name": "Aldric"}).de == "d'Aldric"
    assert noun_of("Aldric", object()).subject == "Aldric"


@pytest.mark.parametrize(
    ("name", "subject", "de"),
    [
        ("Le personnage", "le personnage", "du personnage"),
        ("La Hyène", "la Hyène", "de la Hyène"),
        ("L'Orc", "l'Orc", "de l'Orc"),
        ("Les Loups", "les Loups", "des Loups"),
        ("Aldric", "Aldric", "d'Aldric"),
        ("Le", "Le", "de Le"),  # a name that is only an article stays as written
    ],
)
def test_a_proper_name_that_opens_with_its_article_is_said_as_french_says_it(name, subject, de):
    """« contre le personnage », « du personnage »: never « contre Le personnage » nor « de Le
    personnage » (issue 15, « Articles and capitals »)."""
    noun = named(name, Grammar())
    assert (noun.subject, noun.de) == (subject, de)


def test_only_a_proper_name_loses_its_leading_article():
    """A common noun already says its article from its grammar: it is left as it is."""
    assert named("Loup", DEFINITE_M) == Noun("Loup", DEFINITE_M)
    assert named("Lame", DEFINITE_F) == Noun("Lame", DEFINITE_F)
    assert named("Lestrade", Grammar()).subject == "Lestrade"  # « Les » only as a word of its own


def test_the_preview_lists_names_with_their_articles_and_counts_the_rest():
    names = [Noun("Orc", DEFINITE_M), Noun("Harpie", DEFINITE_F), Noun("Aldric")]
    assert french_list(names) == "l'Orc, la Harpie et Aldric"
    many = [*names, Noun("Loups", Grammar(article=Article.PLURAL)), Noun("Elwen", Grammar(gender=Gender.FEMININE))]
    assert french_list(many) == "l'Orc, la Harpie, Aldric et 2\u00a0autres"
    assert french_list([*names, Noun("Elwen")]) == "l'Orc, la Harpie, Aldric et 1\u00a0autre"


def test_a_default_role_name_is_a_common_noun_outside_its_ruleset():
    """A share's title or an encounter's log title says « l'attaquant », « le personnage 2 »: never
    « contre Défenseur » (issue 15, « Articles and capitals »)."""
    assert noun_of("Attaquant", {}).subject == "l'attaquant"
    assert noun_of("Défenseur", {"grammar": grammar_data(Grammar())}).de == "du défenseur"
    assert noun_of("Personnage 2", {}).a == "au personnage 2"
    assert noun_of("Aldric", {}).subject == "Aldric"
