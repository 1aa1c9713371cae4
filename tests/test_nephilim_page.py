"""The /nephilim/ page: full page, htmx fragments, presets, permalink, French errors, bursts."""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils.html import escape

from bestiary.nephilim import summaries
from bestiary.nephilim.models import Approach, DefenceType, Effect, Protection, Weapon, _flat
from bestiary.nephilim.settle import settle
from bestiary.nephilim.web import variations
from calculator.forms import permalink_query
from calculator.plugins import Settled
from rulesets.core.french import typography as fr
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
    assert numbers["d1.damage_taken"] == "5\u00a0PHYS · 0\u00a0MAG"
    assert numbers["d2.damage_taken"] == "1\u00a0PHYS · 0\u00a0MAG"
    assert numbers["d3.damage_taken"] == "3\u00a0PHYS · 0\u00a0MAG"
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
    assert fr("Vécu ou Menace (degré) : doit être entre 0 et 30 (reçu 45).") in response.content.decode()


def test_a_forbidden_approach_element_is_refused_on_its_field(client: Client) -> None:
    # a permalink replays exactly what it names (no settling): the engine refuses it on its field
    query = _example_query("critique") + "&attacker.approach_element=feu&attacker.approach_value=3&r=1"
    response = client.get(f"/nephilim/?{query}")
    assert response.status_code == 422
    assert escape(fr("n'est pas permise par l'approche « Standard »")) in response.content.decode()


def test_the_weapon_preset_fills_the_weapon_fields(client: Client) -> None:
    response = client.post(
        "/nephilim/", "_f=1&preset.weapon=fusil-d-assaut-ak-47&_load=preset.weapon", content_type=FORM
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert re.search(r'name="attacker.weapon.phys"[^>]*value="4"', html)
    assert re.search(r'name="attacker.weapon.cadences.raf_cont"[^>]*checked', html)


def test_a_creature_preset_fills_a_defender_column(client: Client) -> None:
    response = client.post(
        "/nephilim/", "_f=1&preset.defender.0=effet-dragon-de-feu&_load=preset.defender.0", content_type=FORM
    )
    html = response.content.decode()
    assert re.search(r'name="defenders.0.name"[^>]*value="Effet-dragon de Feu"', html)
    assert re.search(r'name="defenders.0.other.name"[^>]*value="Manteau élémentaire de Feu"', html)


def test_the_defence_preset_fills_the_defence_type(client: Client) -> None:
    response = client.post(
        "/nephilim/", "_f=1&preset.defence.0=esquiver-melee&_load=preset.defence.0", content_type=FORM
    )
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
    response = client.post(
        "/nephilim/",
        "_f=1&_add=defenders&preset.defender_effect_2.1=corps-brumeux&_load=preset.defender_effect_2.1",
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


# --------------------------------------------------------------------------- table mode (issue 13)


class _Controls(HTMLParser):
    """The controls a browser sends with the form: every named input and select, but buttons."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: dict[str, str] = {}
        self.options: dict[str, list[tuple[str, str]]] = {}
        self._select: str | None = None
        self._option: str | None = None
        self._chosen: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        name = a.get("name", "")
        if tag == "input" and name and a.get("type") not in ("submit", "button"):
            if a.get("type") == "checkbox":
                if "checked" in a:
                    self.sent[name] = "on"
            else:
                self.sent[name] = a.get("value", "")
        elif tag == "select" and name:
            self._select = name
            self.options[name] = []
        elif tag == "option" and self._select is not None:
            self._option = a.get("value", "")
            if "selected" in a:
                self._chosen[self._select] = self._option

    def handle_data(self, data: str) -> None:
        if self._select is not None and self._option is not None:
            self.options[self._select].append((self._option, data.strip()))
            self._option = None

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self._select is not None:
            first = self.options[self._select][0][0] if self.options[self._select] else ""
            self.sent[self._select] = self._chosen.get(self._select, first)
            self._select = None


class Browser:
    """The Nephilim page as a browser holds it: each action sends the whole form back."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self._read(client.get("/nephilim/"))

    def _read(self, response: Any) -> Any:
        assert response.status_code in (200, 422), response.status_code
        self.response = response
        parser = _Controls()
        parser.feed(response.content.decode())
        self.data, self.options = parser.sent, parser.options
        return response

    def post(self, **extra: str) -> Any:
        return self._read(self.client.post("/nephilim/", {**self.data, **extra}))

    def load(self, select: str, label: str) -> Any:
        """Choose an entry of a bestiary select (the page loads it at once)."""
        value = next((v for v, text in self.options[select] if text == label), None)
        assert value is not None, f"{label!r} is not offered by {select}: {self.options[select]}"
        return self.post(**{select: value, "_load": select})

    def change(self, name: str, value: str) -> Any:
        """Change a field, and redraw (« Actualiser la scène », what the live redraw does)."""
        return self.post(**{name: value, "_refresh": "1"})

    def __getitem__(self, name: str) -> str:
        return self.data.get(name, "")

    @property
    def notes(self) -> list[str]:
        return list(self.response.context["settle_notes"])

    @property
    def valid(self) -> bool:
        return self.response.context["scenario"] is not None and not self.response.context["form"].errors

    def resolve(self, **dice: str) -> dict[str, str]:
        """Résoudre (no JavaScript): the result page's « Résultat final » numbers."""
        response = self.client.post("/nephilim/", {**self.data, **{f"dice.{k}": v for k, v in dice.items()}})
        assert response.status_code == 303, response.content.decode()[:3000]
        return _final(self.client.get(response.headers["Location"]).content.decode())


def test_the_page_leads_with_the_choices_and_the_numbers_wait_behind_ajuster(client: Client) -> None:
    html = unescape(client.get("/nephilim/").content.decode())
    for line in (
        "Mains nues\u00a0: degré\u00a01, 1\u00a0PHYS",
        "Standard\u00a0: sans modificateur",
        "Standard\u00a0: si réussie −1\u00a0PHYS, −1\u00a0MAG",
        "Nephilim, Vécu 5",
        "Autre PNJ, degré 5",
    ):
        assert line in html
    assert html.count('<span class="adjust-toggle">Ajuster</span>') >= 10
    # the settings stay in their closed section
    assert re.search(r'<details class="card-section">\s*<summary>Réglages de règles</summary>', html)


def test_a_ranged_weapon_of_a_creature_turns_the_attack_into_a_shot(client: Client) -> None:
    """§5: the AK-47 is a ranged weapon; §3 the standard shot is « Tir (visée 1r) »; §10 the default
    defence against a shot is « Encaisser les dommages » (rules/nephilim.md, defaults that follow)."""
    page = Browser(client)
    page.load("preset.attacker", "Mercenaire (Humain ordinaire)")
    assert page.valid
    assert (page["mode"], page["attacker.weapon.name"]) == ("tir", "Fusil d'assaut AK-47")
    assert (page["attacker.approach.kind"], page["attacker.approach.name"]) == ("tir", "Tir (visée 1r)")
    assert (page["defenders.0.defence.name"], page["defenders.0.defence.context"]) == ("Encaisser les dommages", "tir")
    assert fr("Fusil d'assaut AK-47\u00a0: attaque à distance (tir).") in page.notes
    assert fr("Attaque à distance (tir)\u00a0: défense «\u00a0Encaisser les dommages\u00a0».") in page.notes
    # the shot's own lists are offered now: its approaches, its defences, the AK-47's ammunition
    assert [t for v, t in page.options["preset.approach_tir"] if v][:2] == ["Tir (visée 1r)", "Tir (sans visée)"]
    assert [t for v, t in page.options["preset.defence_tir.0"] if v] == [
        "Encaisser les dommages",
        "Parer arme projectiles",
    ]
    ammunition = [t for v, t in page.options["preset.ammunition_fusil-dassaut-ak-47"] if v]
    assert ammunition == [
        "Standard (+0)",
        "Balles blindées de fusils d'assaut (+4)",
        "Balles creuses/perforantes/explosives (+4)",
    ]


def test_switching_the_attack_type_brings_its_approach_weapon_and_defence(client: Client) -> None:
    """§3: a shot or a throw takes a ranged approach and weapon (the table's first: « Arc »,
    « Fronde »); §10–11: « Encaisser les dommages » is the default defence at range; back in melee,
    « Standard » (§2, §9)."""
    page = Browser(client)
    page.change("mode", "tir")
    assert page.valid
    assert (page["attacker.approach.name"], page["attacker.weapon.name"]) == ("Tir (visée 1r)", "Arc")
    assert (page["defenders.0.defence.name"], page["defenders.0.defence.context"]) == ("Encaisser les dommages", "tir")
    assert fr("Attaque à distance (tir)\u00a0: approche «\u00a0Tir (visée 1r)\u00a0».") in page.notes
    assert fr("Attaque à distance (tir)\u00a0: arme «\u00a0Arc\u00a0».") in page.notes
    page.change("mode", "lancer")
    assert page.valid
    assert (page["attacker.approach.name"], page["attacker.weapon.name"]) == ("Lancer", "Fronde")
    assert page["defenders.0.defence.context"] == "lancer"
    page.change("mode", "melee")
    assert page.valid
    assert (page["attacker.approach.name"], page["attacker.weapon.name"]) == ("Standard", "Mains nues")
    assert (page["defenders.0.defence.name"], page["defenders.0.defence.context"]) == ("Standard", "melee")


def test_a_ranged_approach_or_weapon_changes_the_attack_and_an_instinctive_shot_stays_in_melee(client: Client) -> None:
    """§2: « Tir instinctif » shoots a ranged weapon in melee (−4): it takes a ranged weapon and the
    attack stays a melee one; a ranged weapon loaded then keeps it."""
    page = Browser(client)
    page.load("preset.approach_melee", "Tir instinctif")
    assert page.valid
    assert (page["mode"], page["attacker.weapon.category"], page["attacker.weapon.name"]) == ("melee", "tir", "Arc")
    assert fr("Tir instinctif\u00a0: arme «\u00a0Arc\u00a0».") in page.notes
    page.load("preset.weapon", "Pistolet 9mm (2 PHYS) — tir")
    assert page.valid
    assert (page["mode"], page["attacker.approach.name"]) == ("melee", "Tir instinctif")
    assert page.notes == []
    # a melee weapon ends the instinctive shot
    page.load("preset.weapon", "Épée/hache (2 PHYS)")
    assert page.valid
    assert (page["mode"], page["attacker.approach.name"]) == ("melee", "Standard")
    # a thrown weapon makes a throw
    page.load("preset.weapon", "Javelot (2 PHYS) — lancer")
    assert page.valid
    assert (page["mode"], page["attacker.approach.name"], page["defenders.0.defence.context"]) == (
        "lancer",
        "Lancer",
        "lancer",
    )


def test_a_valid_scene_is_left_alone(client: Client) -> None:
    """Settling changes only what the engine refuses: the default page sends nothing to change."""
    page = Browser(client)
    data = {k: v for k, v in page.data.items() if not k.startswith(("preset.", "dice."))}
    assert settle(data) == Settled()
    page.load("preset.attacker", "Mercenaire (Humain ordinaire)")
    data = {k: v for k, v in page.data.items() if not k.startswith(("preset.", "dice."))}
    assert settle(data) == Settled()


def test_each_added_defender_starts_with_a_defence_for_the_attack_and_the_cadence_follows(client: Client) -> None:
    """§14 Multi-défenseurs: several defenders only in coup par coup or in bursts (the weapon's first
    of them); rules/nephilim.md: each added column starts with a defence valid for the attack."""
    page = Browser(client)
    page.load("preset.attacker", "Mercenaire (Humain ordinaire)")
    assert page["cadence"] == "unique"
    page.post(_add="defenders")
    assert page.valid
    assert page["cadence"] == "cpc"
    assert (page["defenders.1.defence.name"], page["defenders.1.defence.context"]) == ("Encaisser les dommages", "tir")
    assert fr("Plusieurs défenseurs\u00a0: cadence «\u00a0Coup par coup\u00a0».") in page.notes
    page.post(_add="defenders")
    assert page.valid
    assert page["defenders.2.defence.context"] == "tir"
    # a burst the weapon fires stays; a weapon that cannot fire it goes back to its own cadence
    page.change("cadence", "raf_cont")
    assert page["cadence"] == "raf_cont"
    assert page.notes == []
    page.load("preset.weapon", "Pistolet 9mm (2 PHYS) — tir")
    assert page.valid
    assert page["cadence"] == "cpc"
    assert fr("« Pistolet 9mm » ne tire pas en « Rafale continue » : cadence « Coup par coup ».") in page.notes


def test_a_single_shot_weapon_offers_no_second_defender_and_says_why(client: Client) -> None:
    """§14: several defenders only in coup par coup or in bursts: a melee weapon, a bow cannot."""
    html = unescape(client.get("/nephilim/").content.decode())
    assert not re.search(r'name="_add"\s+value="defenders"', html)
    assert "Plusieurs défenseurs\u202f: seulement avec une arme qui tire au coup par coup ou en rafale." in html
    page = Browser(client)
    page.load("preset.attacker", "Mercenaire (Humain ordinaire)")
    assert re.search(r'name="_add"\s+value="defenders"', page.response.content.decode())


def test_ammunition_follows_the_firearm(client: Client) -> None:
    """§7: ammunition for firearms only, each for its compatible weapons; another weapon takes the
    standard round back."""
    page = Browser(client)
    page.load("preset.attacker", "Mercenaire (Humain ordinaire)")
    page.load("preset.ammunition_fusil-dassaut-ak-47", "Balles blindées de fusils d'assaut (+4)")
    assert page.valid
    assert page["attacker.ammunition.damage_bonus"] == "4"
    page.load("preset.weapon", "Pistolet 9mm (2 PHYS) — tir")
    assert page.valid
    assert (page["attacker.ammunition.name"], page["attacker.ammunition.damage_bonus"]) == ("Standard", "0")
    assert (
        fr("« Balles blindées de fusils d'assaut » ne convient pas à « Pistolet 9mm » : munition « Standard ».")
        in page.notes
    )
    page.load("preset.weapon", "Arc (2 PHYS) — tir")
    assert "preset.ammunition_arc" not in page.options  # a bow takes no ammunition


def test_a_nephilims_approche_waits_for_an_approach_that_allows_its_element(client: Client) -> None:
    """§2: a Nephilim adds its Approche only with an approach whose elements include it (Standard:
    none; Attaque en force: Feu, Terre); the value is set aside meanwhile, and a value typed by the
    game master afterwards is never overridden."""
    page = Browser(client)
    page.load("preset.attacker", "Sahar (Nephilim)")
    assert page.valid
    assert (page["attacker.approach_element"], page["attacker.approach_value"]) == ("feu", "0")
    assert page["attacker._kept"] == "4"
    assert (
        fr(
            "Sahar : l'approche « Standard » n'admet pas l'Approche Ka-Feu 4, mise de côté "
            "jusqu'à une approche qui l'admet."
        )
        in page.notes
    )
    page.load("preset.approach_melee", "Attaque en force")
    assert page.valid
    assert page["attacker.approach_value"] == "4"
    assert "attacker._kept" not in page.data
    assert fr("Sahar : Approche Ka-Feu 4 reprise avec l'approche « Attaque en force ».") in page.notes
    page.change("attacker.approach_value", "0")
    assert page["attacker.approach_value"] == "0"
    assert page.notes == []
    page.load("preset.approach_melee", "Attaque rapide")  # Eau, Air: nothing to set aside
    assert page.valid
    assert page.notes == []


def test_a_nephilim_defenders_approche_waits_for_a_defence_that_allows_it(client: Client) -> None:
    """§9: the Approche counts in defence with a defence type whose elements include it (Standard:
    none; Parer: Terre, Feu)."""
    page = Browser(client)
    page.load("preset.defender.0", "Sahar (Nephilim)")
    assert page.valid
    assert (page["defenders.0.approach_value"], page["defenders.0._kept"]) == ("0", "4")
    page.load("preset.defence_melee.0", "Parer")
    assert page.valid
    assert page["defenders.0.approach_value"] == "4"
    assert fr("Sahar\u00a0: Approche Ka-Feu 4 reprise avec la défense «\u00a0Parer\u00a0».") in page.notes


def test_the_attackers_kind_decides_its_approche_and_ka_feu() -> None:
    """§1: an humain initié attacks with Ka-Soleil, an autre PNJ has no Approche; §14: only a
    Nephilim adds Ka-Feu to the damage."""
    settled = settle(
        {"_f": "1", "attacker.kind": "initie", "attacker.approach_element": "feu", "attacker.approach_value": "3"}
    )
    assert settled.changes["attacker.approach_element"] == "soleil"
    settled = settle(
        {"_f": "1", "attacker.kind": "autre", "attacker.approach_element": "eau", "attacker.approach_value": "2"}
    )
    assert (settled.changes["attacker.approach_value"], settled.changes["attacker.approach_element"]) == ("0", "aucun")
    settled = settle({"_f": "1", "attacker.name": "Vigile", "attacker.kind": "autre", "attacker.ka_feu": "6"})
    assert settled.changes["attacker.ka_feu"] == "0"
    assert "Vigile\u00a0: seul un Nephilim ajoute son Ka-Feu aux dommages." in settled.notes
    settled = settle({"_f": "1", "defenders.0.kind": "autre", "defenders.0.approach_value": "2"})
    assert settled.changes["defenders.0.approach_value"] == "0"


def test_a_removed_defender_takes_its_spells_and_the_others_follow_their_defender(client: Client) -> None:
    """§14: spells per column; removing column 2 removes its spells, column 3's become column 2's."""
    page = Browser(client)
    page.load("preset.attacker", "Mercenaire (Humain ordinaire)")
    page.post(_add="defenders")
    page.post(_add="defenders")

    def count() -> int:
        return int(page.response.context["rows"]["defender_effects"])

    page.load(f"preset.defender_effect_2.{count()}", "Corps brumeux (Sort, Mêlée et distance)")
    page.load(f"preset.defender_effect_3.{count()}", "Armure invincible (Sort, Mêlée et distance)")
    targets = {page[f"defender_effects.{j}.name"]: page[f"defender_effects.{j}.target"] for j in range(count())}
    assert targets == {"": "0", "Corps brumeux": "2", "Armure invincible": "3"}
    page.post(_del="defenders.1")
    assert page.valid
    targets = {page[f"defender_effects.{j}.name"]: page[f"defender_effects.{j}.target"] for j in range(count())}
    assert targets == {"": "0", "Armure invincible": "2"}
    assert fr("Défenseur n°2 retiré, et avec lui «\u00a0Corps brumeux\u00a0».") in page.notes


def test_each_defender_column_offers_its_effects_select(client: Client) -> None:
    """§14 (système B1): spells, invocations and formulas per column, in a collapsible panel."""
    html = client.get("/nephilim/?_f=1&_add=defenders").content.decode()
    columns = html.split('<fieldset class="neph-defender">')[1:]
    assert len(columns) == 2
    for n, column in enumerate(columns, start=1):
        assert f'name="preset.defender_effect_{n}.1"' in column
        assert "Armure invincible" in column


def test_an_effect_chosen_in_a_defenders_column_reaches_the_engine_for_that_defender(client: Client) -> None:
    """§13 Armure invincible cancels all damage; chosen in column 2 of a coup par coup, only the
    second defender is spared."""
    page = Browser(client)
    page.load("preset.attacker", "Mercenaire (Humain ordinaire)")
    page.post(_add="defenders")
    dice = {"attaque.1": "10", "attaque.2": "10"}
    before = page.resolve(**dice)
    assert before["d1.damage_taken"] == before["d2.damage_taken"] == "4\u00a0PHYS · 0\u00a0MAG"
    row = page.response.context["rows"]["defender_effects"]
    page.load(f"preset.defender_effect_2.{row}", "Armure invincible (Sort, Mêlée et distance)")
    assert page.valid
    assert page[f"defender_effects.{row}.target"] == "2"
    after = page.resolve(**dice)
    assert after["d1.damage_taken"] == "4\u00a0PHYS · 0\u00a0MAG"
    assert after["d2.damage_taken"] == "0\u00a0PHYS · 0\u00a0MAG"


def test_the_summary_lines_read_the_table_rows_in_french() -> None:
    """The « Ajuster » lines of seed rows (§4 weapons, §8 protections, §9–10 defences, §2 approaches,
    §12–13 spells): numbers with their PHYS / MAG, signs as « − », no-break spaces before « : »."""
    glaive = Weapon.objects.get(name="Glaive élémentaire de Feu").as_scenario()
    assert summaries.weapon_line(_flat(glaive)) == (
        "Glaive élémentaire de Feu\u00a0: degré\u00a03, 3\u00a0PHYS, 3\u00a0MAG, Feu, magique, "
        "transperce les protections non magiques"
    )
    disarm = DefenceType.objects.get(name="Désarmer (avec arme)").as_scenario()
    assert summaries.defence_line(_flat(disarm)) == (
        "Désarmer (avec arme)\u00a0: défense −4, si réussie dommages annulés, si ratée +2\u00a0PHYS ; Approche Ka-Lune"
    )
    flee = DefenceType.objects.get(name="Fuir").as_scenario()
    assert summaries.defence_line(_flat(flee)).endswith("Approche Ka-Eau, Ka-Air ou Ka-Lune")
    force = Approach.objects.get(name="Attaque en force").as_scenario()
    assert summaries.approach_line(_flat(force)) == (
        "Attaque en force\u00a0: attaque +3, ne peut pas se défendre, Approche Ka-Feu ou Ka-Terre"
    )
    targe = Protection.objects.get(name__startswith="Cavalier").as_scenario()
    assert "4\u00a0PHYS, 4\u00a0MAG, d'origine magique, bonus optionnel +2" in summaries.protection_line(targe)
    furie = Effect.objects.get(name="Furie pyrétique", side="attaquant").as_scenario()
    assert (
        summaries.effect_line(furie) == "seulement avec Attaque en force\u00a0: attaque +3, en mêlée"
    )  # +3 more than en force
    prince = Effect.objects.get(name__startswith="Prince de la spirale").as_scenario()
    assert "attaque adverse −3 au round suivant" in summaries.effect_line(prince)
    assert summaries.attacker_margin_line({"margin_damage": "2", "margin_malus": "1"}) == (
        "2 × +1 dommage, 1 × −1 défense adverse"
    )
    # a value being typed is shown as typed, never an error
    assert (
        summaries.weapon_line({"name": "Dague", "degree": "a", "phys": "1"}) == "Dague\u00a0: degré\u00a0a, 1\u00a0PHYS"
    )


def test_a_live_change_of_the_approach_type_redraws_the_form_so_that_the_next_change_knows_its_cause(
    client: Client,
) -> None:
    """The hidden inputs say what the page shows; a live change of the approach's type alone (in
    « Ajuster ») moves nothing else, yet redraws them, so that a later change of the attack type is
    read as the cause (and not undone by an approach that only seemed new)."""
    page = Browser(client)
    sent = {k: v for k, v in page.data.items() if not k.startswith("dice.")}
    live = settle({**sent, "attacker.approach.kind": "etrange", "_live": "1"})
    assert live.changes == {"attacker.approach._was": "etrange"}
    assert live.notes == []
    # without the live redraw, nothing to remember (every other answer draws the inputs anew)
    assert settle({**sent, "attacker.approach.kind": "etrange"}) == Settled()
    # the attack type changed after it: the approach follows the attack type
    later = settle({**sent, "attacker.approach.kind": "etrange", "attacker.approach._was": "etrange", "mode": "tir"})
    assert later.changes["attacker.approach.kind"] == "tir"
    assert "mode" not in later.changes


def test_the_names_grammar_waits_behind_ajuster_and_a_creature_fills_it(client: Client) -> None:
    """Issue 15: each combatant's « Grammaire du nom » (article, gender, elision) is in its own
    « Ajuster » disclosure under the name, read as « se dit « … », au … »; a creature of the bestiary
    fills it, and the story says the name with it."""
    page = Browser(client)
    html = unescape(page.response.content.decode())
    blocks = re.findall(r'<details class="adjust" data-adjust="(attacker_grammar|defender_grammar\.0)"', html)
    assert blocks == ["attacker_grammar", "defender_grammar.0"]
    assert fr("se dit « l'attaquant », au masculin") in html  # a role name reads as a common noun
    assert fr("se dit « le défenseur », au masculin") in html
    page.load("preset.attacker", "Mercenaire (Humain ordinaire)")
    page.load("preset.defender.0", "Sœur Agathe (Selenim)")
    assert (page["attacker.grammar.article"], page["attacker.grammar.gender"]) == ("defini", "m")
    assert (page["defenders.0.grammar.article"], page["defenders.0.grammar.gender"]) == ("propre", "f")
    html = unescape(page.response.content.decode())
    assert fr("se dit « le Mercenaire », au masculin") in html
    assert fr("se dit « Sœur Agathe », au féminin") in html
    assert "Le Mercenaire" in html  # the scene
    page.change("defenders.0.grammar.gender", "m")
    assert fr("se dit « Sœur Agathe », au masculin") in unescape(page.response.content.decode())
