"""The generic encounter helpers: a page filled from combatants, and optional plug-in arguments."""

from rulesets.core.encounter import call, fill_over, list_prefixes


def test_a_list_written_by_fill_replaces_the_default_rows_at_any_depth():
    page = {
        "action": "attaque",
        "npcs.0.name": "PNJ",
        "npcs.0.menace": 1,
        "npcs.1.name": "Autre",
        "adversary.name": "Loup",
        "adversary.blocks.0.boxes": 3,
        "adversary.blocks.1.boxes": 3,
        "adversary.deck.0.name": "Morsure",
    }
    filled = {"npcs.0.name": "Arbalétrier", "adversary.blocks.0.boxes": 2}
    assert list_prefixes(filled) == {"npcs", "adversary.blocks"}
    assert fill_over(page, filled) == {
        "action": "attaque",
        "adversary.name": "Loup",
        "adversary.deck.0.name": "Morsure",  # a list fill does not write keeps its rows
        "npcs.0.name": "Arbalétrier",
        "adversary.blocks.0.boxes": 2,
    }


def test_a_field_that_only_looks_like_a_list_is_kept():
    page = {"npcs10.name": "x", "npcs.x.y": 1}
    assert fill_over(page, {"npcs.0.name": "A"}) == {"npcs10.name": "x", "npcs.x.y": 1, "npcs.0.name": "A"}


def test_optional_arguments_reach_only_the_functions_that_name_them():
    def plain(a, b):
        return (a, b)

    def with_table(a, b, table):
        return (a, b, table)

    assert call(plain, 1, 2, table="t", everyone=()) == (1, 2)
    assert call(with_table, 1, 2, table="t", everyone=()) == (1, 2, "t")
