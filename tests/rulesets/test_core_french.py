"""The French text toolkit (issue 15, item 1), with cases from the seeds' vocabulary, and the text
lint that checks every text the product writes (issue 15, « Proof »)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets.core.french import (
    DEFINITE_F,
    DEFINITE_M,
    MINUS,
    NBSP,
    NNBSP,
    PROPER_F,
    PROPER_M,
    Article,
    Counted,
    Elision,
    Gender,
    Grammar,
    Noun,
    capitalize,
    count,
    elide,
    join,
    named,
    parenthesize,
    plural,
    quote,
    sentence,
    sentences,
    signed,
    starts_with_vowel_sound,
    together,
    typography,
    words,
)
from rulesets.core.results import Event, Narrative
from rulesets.core.schema import ScenarioError, parse
from tests.french_lint import NAMES, problems

PLURAL_M = Grammar(article=Article.PLURAL)
PLURAL_F = Grammar(article=Article.PLURAL, gender=Gender.FEMININE)


# --------------------------------------------------------------------------- sounds and elision


@pytest.mark.parametrize(
    ("word", "vowel"),
    [
        ("Orc", True),
        ("Ondine", True),
        ("Eau", True),
        ("Air", True),
        ("Écorcheur", True),
        ("Ogre", True),
        ("Hydre", True),  # mute h: « l'Hydre »
        ("Hélène", True),
        ("Homme-lézard", True),
        ("Harpie", False),  # aspirated h: « la Harpie »
        ("Héron", False),
        ("Hache", False),
        ("Hobgobelin", False),
        ("Brigand", False),
        ("Yéti", False),  # a y read as a consonant
        ("Yvain", True),
        ("onze", False),
        ("8", False),
        ("", False),
        ("« Orc »", True),
    ],
)
def test_vowel_sound(word: str, vowel: bool) -> None:
    assert starts_with_vowel_sound(word) is vowel


@pytest.mark.parametrize(
    ("word", "following", "expected"),
    [
        ("de", "Orc", "d'Orc"),
        ("de", "Eau", "d'Eau"),  # « Manteau élémentaire d'Eau »
        ("de", "Air", "d'Air"),
        ("de", "Brigand", "de Brigand"),
        ("De", "Ondine", "D'Ondine"),
        ("que", "Aldric", "qu'Aldric"),
        ("le", "Ogre", "l'Ogre"),
        ("la", "Harpie", "la Harpie"),
        ("la", "Hydre", "l'Hydre"),
        ("ne", "atteint", "n'atteint"),
        ("se", "abat", "s'abat"),
        ("jusque", "au", "jusqu'au"),
        ("presque", "à", "presque à"),  # « presque » elides only in « presqu'île »
        ("presque", "île", "presqu'île"),
        ("à", "Orc", "à Orc"),  # not an eliding word
    ],
)
def test_elide(word: str, following: str, expected: str) -> None:
    assert elide(word, following) == expected


# --------------------------------------------------------------------------- names


@pytest.mark.parametrize(
    ("text", "grammar", "subject", "de", "a"),
    [
        ("Brigand", DEFINITE_M, "le Brigand", "du Brigand", "au Brigand"),
        ("Orc", DEFINITE_M, "l'Orc", "de l'Orc", "à l'Orc"),
        ("Harpie", DEFINITE_F, "la Harpie", "de la Harpie", "à la Harpie"),
        ("Ondine", DEFINITE_F, "l'Ondine", "de l'Ondine", "à l'Ondine"),
        ("Héron", DEFINITE_M, "le Héron", "du Héron", "au Héron"),
        (
            "Hurlevent",
            Grammar(article=Article.DEFINITE, elision=Elision.NEVER),
            "le Hurlevent",
            "du Hurlevent",
            "au Hurlevent",
        ),
        ("Yack", Grammar(article=Article.DEFINITE, elision=Elision.ALWAYS), "l'Yack", "de l'Yack", "à l'Yack"),
        ("Aldric", PROPER_M, "Aldric", "d'Aldric", "à Aldric"),
        ("Bertrand", PROPER_M, "Bertrand", "de Bertrand", "à Bertrand"),
        ("Elwen", PROPER_F, "Elwen", "d'Elwen", "à Elwen"),
        ("Loups des cendres", PLURAL_M, "les Loups des cendres", "des Loups des cendres", "aux Loups des cendres"),
        ("Ombres", PLURAL_F, "les Ombres", "des Ombres", "aux Ombres"),
        ("Chien de garde", DEFINITE_M, "le Chien de garde", "du Chien de garde", "au Chien de garde"),
        ("personnage", DEFINITE_M, "le personnage", "du personnage", "au personnage"),
        ("attaquant", DEFINITE_M, "l'attaquant", "de l'attaquant", "à l'attaquant"),
    ],
)
def test_noun_phrases(text: str, grammar: Grammar, subject: str, de: str, a: str) -> None:
    n = Noun(text, grammar)
    assert (n.subject, n.de, n.a) == (subject, de, a)
    assert n.Subject == subject[0].upper() + subject[1:]
    assert str(n) == subject


def test_que_and_agreement() -> None:
    assert Noun("Aldric", PROPER_M).que == "qu'Aldric"
    assert Noun("Brigand", DEFINITE_M).que == "que le Brigand"
    assert Noun("Orc", DEFINITE_M).que == "que l'Orc"
    assert Noun("Harpie", DEFINITE_F).agree("désarmé") == "désarmée"
    assert Noun("Redcap", PROPER_M).agree("désarmé") == "désarmé"
    assert Noun("Loups", PLURAL_M).agree("blessé") == "blessés"
    assert Noun("Ombres", PLURAL_F).agree("blessé") == "blessées"
    assert Noun("Harpie", DEFINITE_F).agree("sonné") == "sonnée"
    assert Noun("Sorcière", DEFINITE_F).agree("rapide") == "rapide"
    assert Noun("Ombres", PLURAL_F).agree("vif", "vive") == "vives"
    assert Noun("Sorcière", DEFINITE_F).agree("vif", "vive") == "vive"
    assert Noun("Loups", PLURAL_M).agree("épuisé", plural="à bout") == "à bout"


def test_grammar_is_a_schema_object() -> None:
    assert parse(Grammar, {"article": "defini", "gender": "f", "elision": "non"}) == Grammar(
        Article.DEFINITE, Gender.FEMININE, Elision.NEVER
    )
    assert parse(Grammar, {}) == PROPER_M
    with pytest.raises(ScenarioError) as caught:
        parse(Grammar, {"gender": "x"})
    assert "gender" in caught.value.errors


# --------------------------------------------------------------------------- counts and signs


@pytest.mark.parametrize(
    ("n", "singular", "expected"),
    [
        (0, "dégât", f"0{NBSP}dégât"),
        (1, "dégât", f"1{NBSP}dégât"),
        (3, "dégât", f"3{NBSP}dégâts"),
        (1, "case cochée", f"1{NBSP}case cochée"),
        (2, "case cochée", f"2{NBSP}cases cochées"),
        (8, "point d'Essence", f"8{NBSP}points d'Essence"),
        (2, "dé", f"2{NBSP}dés"),
        (3, "round", f"3{NBSP}rounds"),
        (2, "rang", f"2{NBSP}rangs"),
        (2, "PV perdu", f"2{NBSP}PV perdus"),
        (2, "stamina", f"2{NBSP}stamina"),
        (4, "angle ouvert", f"4{NBSP}angles ouverts"),
        (2, "cheval", f"2{NBSP}chevaux"),
        (2, "anneau", f"2{NBSP}anneaux"),
        (2, "succès", f"2{NBSP}succès"),
        (-2, "degré", f"{MINUS}2{NBSP}degrés"),
        (1.5, "point", f"1,5{NBSP}point"),
    ],
)
def test_count(n: float, singular: str, expected: str) -> None:
    assert count(n, singular) == expected


def test_count_irregular_and_words() -> None:
    assert count(2, "œil", "yeux") == f"2{NBSP}yeux"
    assert plural("œil") == "yeux"
    assert count(3, "attaque", number="trois") == f"trois{NBSP}attaques"
    assert words(1, "attaque") == "attaque"
    assert words(2, "attaque") == "attaques"
    assert plural("dé bleu") == "dés bleus"
    assert plural("attaque non dépensée") == "attaques non dépensées"


@pytest.mark.parametrize(
    ("n", "expected"), [(2, "+2"), (-2, f"{MINUS}2"), (0, "+0"), (-0.5, f"{MINUS}0,5"), (10, "+10")]
)
def test_signed(n: float, expected: str) -> None:
    assert signed(n) == expected
    assert "-" not in signed(n)


def test_signed_options() -> None:
    assert signed(0, zero="±0") == "±0"
    assert signed(3, plus="") == "3"


# --------------------------------------------------------------------------- composition


def test_sentences_never_glue_a_lower_case_part() -> None:
    # « …Épée/hache. sous la pluie battante. » (issue 15) — the situation is a sentence of its own
    assert sentences(["Sahar engage le corps à corps : Épée/hache.", "sous la pluie battante."]) == (
        "Sahar engage le corps à corps : Épée/hache. Sous la pluie battante."
    )
    assert (
        sentences(["Il frappe", "", "  ", "Quel coup !", "la nuit tombe…"]) == "Il frappe. Quel coup ! La nuit tombe…"
    )
    assert sentence("l'Orc tombe,") == "L'Orc tombe."
    assert sentence("« vite » dit-il") == "« Vite » dit-il."
    assert sentence("il hurle : « assez ! »") == "Il hurle : « assez ! »"
    assert sentence("") == ""


def test_capitalize() -> None:
    assert capitalize("l'orc") == "L'orc"
    assert capitalize("« frappe lourde »") == "« Frappe lourde »"
    assert capitalize("3 dégâts") == "3 dégâts"
    assert capitalize("") == ""


def test_join_and_parentheses() -> None:
    assert join([]) == ""
    assert join(["Aldric"]) == "Aldric"
    assert join(["Aldric", "Elwen"]) == "Aldric et Elwen"
    assert join(["a", "", "b", "c"], last="ou") == "a, b ou c"
    assert parenthesize("tir (visée 1r)") == "(tir, visée 1r)"
    assert parenthesize("Taurus (sort Péché d'Aldebaran)") == "(Taurus, sort Péché d'Aldebaran)"
    assert parenthesize("a (b (c))") == "(a, b, c)"
    assert parenthesize("plain") == "(plain)"
    assert quote(" Frappe lourde ") == f"«{NNBSP}Frappe lourde{NNBSP}»"


# --------------------------------------------------------------------------- typography


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Dés : 3", f"Dés{NNBSP}: 3"),
        ("Dés: 3", f"Dés{NNBSP}: 3"),
        ("avant ; après", f"avant{NNBSP}; après"),
        ("Touché !", f"Touché{NNBSP}!"),
        ("Vraiment ?", f"Vraiment{NNBSP}?"),
        ("« Frappe lourde »", f"«{NNBSP}Frappe lourde{NNBSP}»"),
        ("«Frappe»", f"«{NNBSP}Frappe{NNBSP}»"),
        ("Enragé -2 → 9", f"Enragé {MINUS}2 → 9"),
        ("(-1)", f"({MINUS}1)"),
        ("12:30", "12:30"),  # a time
        ("1d20-1", "1d20-1"),  # an expression, not a sign
        ("2026-12-01", "2026-12-01"),
        ("voir https://estoc.example/r/abc:def ici", "voir https://estoc.example/r/abc:def ici"),
        ("; Terme : définition\n: retrait", f"; Terme{NNBSP}: définition\n: retrait"),  # wikitext
        ("Épée", "Épée"),
        ("", ""),
    ],
)
def test_typography(text: str, expected: str) -> None:
    assert typography(text) == expected
    assert typography(expected) == expected  # idempotent


def test_typography_applied_to_results_and_messages() -> None:
    event = Event(kind="k", label="Sahar : jet", value="-2", group="Dés : total")
    assert (event.label, event.value, event.group) == (f"Sahar{NNBSP}: jet", f"{MINUS}2", f"Dés{NNBSP}: total")
    story = Narrative(scene="En face : l'Orc.", story=("Touché !",))
    assert story.scene == f"En face{NNBSP}: l'Orc."
    assert story.story == (f"Touché{NNBSP}!",)
    assert ScenarioError({"f": "Valeur attendue : un nombre."}).errors["f"] == f"Valeur attendue{NNBSP}: un nombre."


# --------------------------------------------------------------------------- the lint itself


@pytest.mark.parametrize(
    ("bad", "kind"),
    [
        ("La parade de Orc.", "élision"),
        ("Initiative de Ogre", "élision"),
        ("Manteau élémentaire de Eau", "élision"),
        ("la Hydre se dresse", "élision"),
        ("1 case(s) cochée(s)", "(s)"),
        ("(1 dégâts)", "accord"),
        ("3 round pour viser", "accord"),
        ("Il subit -2 degrés", "signe moins"),
        ("(Taurus (sort Péché d'Aldebaran))", "imbriquées"),
        ("…Épée/hache. sous la pluie battante.", "minuscule"),
        ("s'apprête à jouer contre Le personnage", "majuscule"),
        ("frappe l'Attaquant", "nom commun"),
        ("Dés : 3", "avant « : »"),
        ("Touché!", "avant « ! »"),
        ("« Frappe »", "dans « »"),
        ("Fin.. du tour", "ponctuation"),
        ("Fin ., du tour", "ponctuation"),
    ],
)
def test_lint_catches(bad: str, kind: str) -> None:
    found = problems(bad)
    assert any(kind in p for p in found), found


@pytest.mark.parametrize(
    "good",
    [
        "La parade de l'Orc.",
        "L'initiative de l'Ogre",
        f"Manteau élémentaire d'Eau{NNBSP}: 2{NBSP}dégâts, 1{NBSP}case cochée.",
        "la Harpie et le Héron",
        "le Hurlevent",  # forced by its grammar (NO_ELISION)
        f"Il a pris 1{NBSP}round pour viser. Il subit {MINUS}2 degrés (déf. impossible).",
        f"«{NNBSP}Frappe lourde{NNBSP}» contre le personnage{NNBSP}: touché{NNBSP}!",
        "Le Brigand frappe. La Harpie esquive. L'Orc tombe…",
        "À 12:30, 1d20-1.",
        "0 succès, 1 fois",
    ],
)
def test_lint_passes_correct_french(good: str) -> None:
    assert problems(good) == []


@settings(max_examples=100, deadline=None, derandomize=True)
@given(
    st.sampled_from(NAMES), st.sampled_from(["La parade {de}.", "{Subject} frappe {a_other}.", "Il vise {subject}."])
)
def test_every_name_composes_cleanly(name: tuple[str, Grammar], template: str) -> None:
    n = Noun(*name)
    other = Noun("Orc", DEFINITE_M)
    text = typography(template.format(de=n.de, Subject=n.Subject, subject=n.subject, a_other=other.a))
    assert problems(text) == []


def test_quoted_labels_and_parentheses_at_the_end() -> None:
    assert starts_with_vowel_sound(quote("Eau-forte"))
    assert sentence("il lance un sort (invoc.)") == "Il lance un sort (invoc.)."
    assert sentence("il hurle (de rage)") == "Il hurle (de rage)."


def test_words_agreed_in_templates() -> None:
    orc, harpie, loups = Noun("Orc", DEFINITE_M), Noun("Harpie", DEFINITE_F), Noun("Loups", PLURAL_M)
    assert f"{loups:S} {loups:esquive|esquivent}, {loups:blessé}" == "Les Loups esquivent, blessés"
    assert f"{harpie:S} est {harpie['touché']} : {harpie:il/elle/ils/elles} recule" == (
        "La Harpie est touchée : elle recule"
    )
    assert f"{orc:de} / {orc:à} / {orc:que} / {orc:nom} / {orc:le|la|les}" == (
        "de l'Orc / à l'Orc / que l'Orc / Orc / le"
    )
    assert (harpie.il, harpie.Il, loups.lui, loups.le, orc.le) == ("elle", "Elle", "leur", "les", "le")
    assert (harpie.son("garde", feminine=True), harpie.son("armure", feminine=True), loups.ses("crocs")) == (
        "sa garde",
        "son armure",
        "leurs crocs",
    )
    with pytest.raises(ValueError, match="agreement"):
        format(orc, "a|b|c|d|e")


def test_together_and_named() -> None:
    group = together([Noun("Rübezahl", PROPER_M), Noun("Lutin", DEFINITE_M)])
    assert (group.subject, group.plural, group.form("fond", "fondent")) == ("Rübezahl et le Lutin", True, "fondent")
    assert together([Noun("Pixie", DEFINITE_F), Noun("Harpie", DEFINITE_F)]).feminine
    roles = {"attaquant": DEFINITE_M, "monstre": DEFINITE_M, "personnage": DEFINITE_M}
    assert named("Le personnage", PROPER_M).subject == "le personnage"
    assert named("La Bête du Gévaudan", PROPER_M).de == "de la Bête du Gévaudan"
    assert named("L'Ogre", PROPER_M).de == "de l'Ogre"
    assert named("Les Fanatiques", PROPER_M).a == "aux Fanatiques"
    assert named("Attaquant", PROPER_M, roles=roles).subject == "l'attaquant"
    assert named("Monstre 2", PROPER_M, roles=roles).de == "du monstre 2"
    many = Grammar(article=Article.PLURAL)
    assert named("Monstre", many, roles=roles).subject == "les monstres"  # never « les monstre »
    assert named("Attaquant", PROPER_F, roles=roles).agree("blessé") == "blessé"  # a proper grammar: the role's
    assert named("", PROPER_M, blank=Noun("défenseur", DEFINITE_M)).subject == "le défenseur"
    assert named("Aldric", PROPER_M, roles=roles).subject == "Aldric"


def test_counted_in_templates() -> None:
    hits, one = Counted(3, "dégât"), Counted(1, "dégât")
    assert f"{hits} {hits:menace|menacent}" == f"3{NBSP}dégâts menacent"
    assert f"{one} {one:menace|menacent} ({one:mot})" == f"1{NBSP}dégât menace (dégât)"
    assert str(hits) == f"3{NBSP}dégâts"
