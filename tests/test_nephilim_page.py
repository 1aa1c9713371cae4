"""The /nephilim/ page: full page, htmx fragments, presets, permalink, French errors, bursts."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
from django.test import Client

from bestiary.nephilim.models import Creature, DefenceType, Effect, Weapon
from bestiary.nephilim.web import variations
from calculator.forms import permalink_query
from rulesets.core.registry import get
from rulesets.core.request import resolve
from rulesets.core.schema import parse, to_data
from rulesets.nephilim.examples import examples
from rulesets.nephilim.model import Scenario
from tests.nephilim_fixtures import nephilim_data  # noqa: F401  (fixture)
from tests.rulesets.nephilim.helpers import approach, attacker, defence, defender, ranged, weapon

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("nephilim_data")]

FORM = "application/x-www-form-urlencoded"


def _example_query(key: str, seed: int = 42) -> str:
    example = next(e for e in examples() if e.key == key)
    scenario = to_data(parse(Scenario, example.request["scenario"]))
    return permalink_query({"scenario": scenario, "dice": example.request["dice"]}, seed).urlencode()


def _final(html: str) -> dict[str, str]:
    return {k: v.strip() for k, v in re.findall(r'data-key="([^"]+)">([^<]*)<', html)}


def test_the_page_shows_the_form_sections_the_scene_and_the_odds(client: Client) -> None:
    response = client.get("/nephilim/")
    html = unescape(response.content.decode())
    assert response.status_code == 200
    for text in (
        "1. L'attaque",
        "3. Le ou les défenseurs",
        "La scène",
        "Les chances",
        "Résoudre",
        "Attaquant du bestiaire",
        "PHYS",
        "MAG",
    ):
        assert text in html


def test_the_live_scene_updates_as_an_htmx_fragment(client: Client) -> None:
    response = client.get("/nephilim/?_f=1&attacker.name=Ishtar&mode=melee", headers={"HX-Request": "true"})
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="live"' in html
    assert "Ishtar" in html
    assert "<html" not in html


def test_a_burst_against_two_defenders_resolves_in_one_post_and_its_permalink_replays_it(client: Client) -> None:
    query = _example_query("rafale_trois_cibles")
    response = client.post("/nephilim/", query, content_type=FORM)
    assert response.status_code == 303
    link = response.headers["Location"]
    first = client.get(link).content.decode()
    again = client.get(link).content.decode()
    numbers = _final(first)
    assert numbers["d1.damage_taken"] == "5 PHYS · 0 MAG"
    assert numbers["d2.damage_taken"] == "1 PHYS · 0 MAG"
    assert numbers["d3.damage_taken"] == "3 PHYS · 0 MAG"
    assert _final(again) == numbers
    assert "Le récit" in first
    assert "Cible 2 (Initiée) · Protections" in first


def test_an_htmx_post_returns_only_the_result_in_place_and_pushes_the_permalink(client: Client) -> None:
    response = client.post("/nephilim/", _example_query("critique"), content_type=FORM, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert response.headers["HX-Push-Url"].startswith("/nephilim/?")
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="result">')
    assert "<html" not in html
    assert 'name="attacker.name"' not in html
    assert "Réussite critique" in html


def test_a_bad_value_comes_back_on_its_field_in_french_with_422(client: Client) -> None:
    query = _example_query("critique").replace("attacker.degree=6", "attacker.degree=45")
    response = client.post("/nephilim/", query, content_type=FORM)
    assert response.status_code == 422
    assert "Vécu ou Menace (degré) : doit être entre 0 et 30 (reçu 45)." in response.content.decode()


def test_a_forbidden_approach_element_is_refused_on_its_field(client: Client) -> None:
    query = _example_query("critique") + "&attacker.approach_element=feu&attacker.approach_value=3"
    response = client.post("/nephilim/", query, content_type=FORM)
    assert response.status_code == 422
    assert "n&#x27;est pas permise par Standard" in response.content.decode()


def test_the_weapon_preset_fills_the_weapon_fields(client: Client) -> None:
    ak = Weapon.objects.get(name="Fusil d'assaut AK-47")
    response = client.post("/nephilim/", f"_f=1&preset.weapon={ak.pk}&_load=preset.weapon", content_type=FORM)
    html = response.content.decode()
    assert response.status_code == 200
    assert re.search(r'name="attacker.weapon.phys"[^>]*value="4"', html)
    assert re.search(r'name="attacker.weapon.cadences.raf_cont"[^>]*checked', html)


def test_a_creature_preset_fills_a_defender_column(client: Client) -> None:
    creature = Creature.objects.get(name="Effet-dragon de Feu")
    response = client.post(
        "/nephilim/", f"_f=1&preset.defender.0={creature.pk}&_load=preset.defender.0", content_type=FORM
    )
    html = response.content.decode()
    assert re.search(r'name="defenders.0.name"[^>]*value="Effet-dragon de Feu"', html)
    assert re.search(r'name="defenders.0.other.name"[^>]*value="Manteau élémentaire de Feu"', html)


def test_the_defence_preset_fills_the_defence_type(client: Client) -> None:
    dodge = DefenceType.objects.get(name="Esquiver", context="melee")
    response = client.post("/nephilim/", f"_f=1&preset.defence.0={dodge.pk}&_load=preset.defence.0", content_type=FORM)
    html = response.content.decode()
    assert re.search(r'name="defenders.0.defence.success_cancel"[^>]*checked', html)


def test_adding_a_defender_adds_a_column(client: Client) -> None:
    response = client.post("/nephilim/", "_f=1&_add=defenders", content_type=FORM)
    assert 'name="defenders.1.name"' in response.content.decode()


def test_margin_choices_are_offered_as_variations_with_the_same_dice(client: Client) -> None:
    response = client.post("/nephilim/", _example_query("marge_superieure_10"), content_type=FORM)
    html = client.get(response.headers["Location"]).content.decode()
    assert "4 × +1 dommage, 0 × −1 défense adverse" in html
    assert "Résultat final" in html


def test_a_spell_added_in_a_defender_column_aims_at_that_defender(client: Client) -> None:
    spell = Effect.objects.get(name="Corps brumeux", side="defenseur")
    response = client.post(
        "/nephilim/",
        f"_f=1&_add=defenders&preset.defender_effect_2.1={spell.pk}&_load=preset.defender_effect_2.1",
        content_type=FORM,
    )
    html = unescape(response.content.decode())
    assert re.search(r'name="defender_effects.1.name"[^>]*value="Corps brumeux"', html)
    assert re.search(r'name="defender_effects.1.target"[^>]*value="2"', html)
    column = html.split("Défenseur n°2")[1].split("4. Sorts, invocations")[0]
    assert 'name="defender_effects.1.name"' in column


def test_each_field_of_the_scenario_is_on_the_page_once(client: Client) -> None:
    html = client.get("/nephilim/?_f=1&_add=defenders").content.decode()
    names = re.findall(r'<(?:input|select|textarea)[^>]*name="([a-z_]+\.[^"]+|mode|cadence)"', html)
    scenario_names = [n for n in names if not n.startswith(("preset.", "dice.", "seed"))]
    assert len(scenario_names) == len(set(scenario_names))
    for expected in ("defender_effects.0.name", "attacker.effects.0.name", "settings.retenue_order", "cadence"):
        assert expected in scenario_names


def test_the_story_sits_above_the_technical_frame_with_badges_and_percent_odds(client: Client) -> None:
    response = client.post("/nephilim/", _example_query("critique"), content_type=FORM)
    html = unescape(client.get(response.headers["Location"]).content.decode())
    story, technical, final = html.index('id="story"'), html.index('id="technical"'), html.index('id="final"')
    assert story < technical < final  # §15: "Le récit" above the technical frame, "Résultat final" after
    tech = html[technical:final]
    assert '<span class="badge badge-phys">PHYS</span>' in tech
    assert "ev-attack_roll" in tech  # attacker's name in red
    assert "ev-defence_roll" in tech  # defender's name in blue
    odds = html[html.index('id="odds"') :]
    for label in ("Probabilité de toucher", "Probabilité de critique", "Probabilité de maladresse"):
        row = odds[odds.index(label) :].split("</tr>")[0]
        assert re.search(r"\d+,\d\s%", row), row
    assert "css/nephilim" in html
    css = (Path(__file__).resolve().parents[1] / "static" / "css" / "nephilim.css").read_text(encoding="utf-8")
    for colour in ("#C0524E", "#6B4E8A", "#2F5D8A"):  # PHYS and attacker, MAG, defender
        assert colour in css


def test_each_defender_of_a_burst_is_offered_its_own_margin_choices() -> None:
    scn = ranged(
        attacker(approach=approach("Tir (visée 1r)"), weapon=weapon("Fusil d'assaut AK-47"), degree=14),
        defender(name="Vigile", degree=13, defence=defence("Parer arme projectiles", "tir")),
        defender(name="Chauffeur", degree=12, defence=defence("Parer arme projectiles", "tir")),
        cadence="raf_cont",
    )
    dice = {"attaque.1": 5, "defense.1": 5, "defense.2": 5}  # margins 13, 12 and 11
    resolution = resolve(get("nephilim"), {"scenario": to_data(scn), "dice": dice})
    offered = {label: values for label, values, _current in variations(resolution)}
    assert "3 × +1 dommage, 0 × −1 défense adverse" in offered
    assert offered["Vigile : 2 × −1 dommage, 0 × −1 attaque adverse"] == {
        "defenders.0.margin_damage": 2,
        "defenders.0.margin_malus": 0,
    }
    assert offered["Chauffeur : 0 × −1 dommage, 1 × −1 attaque adverse"] == {
        "defenders.1.margin_damage": 0,
        "defenders.1.margin_malus": 1,
    }
    assert len(offered) == 4 + 3 + 2
