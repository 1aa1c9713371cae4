"""Issue 14 on the Féerie exchange page and API: a special blow or a pace chosen by name, by the page's own
« Coup spécial » dropdown or by the bestiary's row, carries the seed's numbers; angles set by the game
master; an overflow of assailants is a message on its field and a 400 on the API."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from bestiary.feerie import models as m
from tests.test_table_mode import controls, form_data

pytestmark = pytest.mark.django_db

BLOW_NUMBERS = ("attack_malus", "ranged_attack_malus", "defense_malus", "effect_value")


@pytest.fixture(autouse=True)
def tables(settings: Any) -> None:
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    call_command("loaddata", "fixtures/feerie.json", verbosity=0)


def form(client: Client, data: dict[str, str] | None = None) -> dict[str, str]:
    """The page's controls as a browser sends them (after ``data`` was loaded, when given)."""
    response = client.get("/feerie/", {"_f": "1", **data}) if data else client.get("/feerie/")
    return {**form_data(controls(response)), "_f": "1"}


def result(client: Client, data: dict[str, str]) -> Any:
    response = client.get("/feerie/", {**data, "r": "1"})
    assert response.status_code == 200, response.context["form"].errors
    resolution = response.context["resolution"]
    assert resolution is not None, response.context["form"].errors
    return resolution.result


def attack_terms(r: Any) -> list[tuple[str, str]]:
    return [(e.label, e.value) for e in r.events if e.data.get("quantity") == "attack"]


def blank_blow(kind: str) -> dict[str, str]:
    return {"blows.0.kind": kind, **{f"blows.0.{k}": "" for k in BLOW_NUMBERS}}


def test_the_plain_blow_dropdown_carries_desarmer_minus_8(client: Client) -> None:
    # « Ajuster » › « Coup spécial » set to Désarmer, nothing else typed
    r = result(client, form(client) | blank_blow("desarmer"))
    assert ("Coup spécial\u202f: Désarmer", "−8") in attack_terms(r)


def test_the_plain_blow_dropdown_carries_faire_tomber_and_vol_plane(client: Client) -> None:
    hit = {"term": "19"}
    trip = result(client, form(client) | blank_blow("faire_tomber") | hit)
    assert trip.numbers["effect_faire_tomber"] == -4
    flight = result(client, form(client) | blank_blow("vol_plane") | hit)
    assert flight.numbers["effect_vol_plane"] >= 1
    assert "projeté à 0" not in " ".join(e.label for e in flight.events_of("blow"))


@pytest.mark.parametrize("kind", [k for k, _l in m.SpecialBlow._meta.get_field("kind").choices])
def test_the_page_preset_gives_the_same_result_as_the_name_alone(client: Client, kind: str) -> None:
    # the defender as small as the Wichtln (both guard blows may be tried), a previous loss (acharnement)
    base = form(client) | {"defender.taille": "-2", "previous_loss": "9", "term": "19"}
    loaded = form(client, base | {"_load": "preset.blow.0", "preset.blow.0": kind})
    assert loaded["blows.0.kind"] == kind
    by_row, by_name = result(client, loaded), result(client, base | blank_blow(kind))
    assert (by_row.outcome, dict(by_row.numbers)) == (by_name.outcome, dict(by_name.numbers))
    assert [e.label for e in by_row.events] == [e.label for e in by_name.events]


def test_a_charge_at_a_run_from_the_pace_select_carries_minus_8_and_plus_4(client: Client) -> None:
    base = form(client) | {"term": "0"}
    still = result(client, base)
    loaded = form(client, base | {"_load": "preset.movement", "preset.movement": "course"})
    run = result(client, loaded | {"situation.charge": "on"})
    assert (run.numbers["attack"], run.numbers["damage"]) == (still.numbers["attack"] - 8, still.numbers["damage"] + 4)
    # the pace's name alone, as the « Ajuster » select leaves it
    typed = base | {"situation.movement.pace": "course", "situation.charge": "on"}
    assert dict(result(client, typed).numbers) == dict(run.numbers)


OGRE_AND_SYLPHES = {
    "attacker.name": "Sylphe",
    "attacker.taille": "-2",
    "defender.name": "Ogre",
    "defender.taille": "2",
    "situation.open_angles": "4",
    "situation.co_attackers.0.taille": "-2",
}


def test_the_game_master_spreads_four_sylphes_over_the_ogre_angles(client: Client) -> None:
    page = client.get("/feerie/")
    assert 'name="situation.occupied_angles"' in page.content.decode()
    base = form(client) | OGRE_AND_SYLPHES | {"situation.co_attackers.0.count": "3"}
    packed = result(client, base)
    spread = result(client, base | {"situation.occupied_angles": "4"})
    assert (packed.numbers["occupied_angles"], spread.numbers["occupied_angles"]) == (1, 4)
    assert spread.numbers["defense"] == packed.numbers["defense"] - 6


def test_an_overflow_of_sylphes_is_a_message_on_its_field(client: Client) -> None:
    data = form(client) | OGRE_AND_SYLPHES | {"situation.co_attackers.0.count": "16", "r": "1"}
    response = client.get("/feerie/", data)
    assert response.context["resolution"] is None
    message = response.context["form"].errors["situation.co_attackers.0.count"]
    assert "Plus de place" in str(message)
    assert "1 de trop" in str(message)


def test_the_api_carries_desarmer_and_refuses_an_overflow(client: Client) -> None:
    def post(scenario: dict[str, Any]) -> Any:
        payload = {"scenario": scenario, "dice": {"plus.1": 10, "moins.1": 10}}
        return client.post("/api/rulesets/feerie/resolve", json.dumps(payload), content_type="application/json")

    ok = post({"blows": [{"kind": "desarmer"}]})
    assert ok.status_code == 200
    assert ok.json()["numbers"]["attack"] == 23 - 8
    run = post({"situation": {"movement": {"pace": "course"}, "charge": True}})
    assert (run.json()["numbers"]["attack"], run.json()["numbers"]["damage"]) == (23 - 8, 12 + 4)
    crowd = {
        "attacker": {"taille": -2},
        "defender": {"taille": 2},
        "situation": {"co_attackers": [{"count": 16, "taille": -2}]},
    }
    refused = post(crowd)
    assert refused.status_code == 400
    assert "Plus de place" in refused.json()["errors"]["scenario.situation.co_attackers.0.count"]


def test_angles_set_when_nobody_else_is_left_are_cleared_with_a_note(client: Client) -> None:
    from bestiary.feerie.settle import settle_exchange

    data = form(client) | {"situation.occupied_angles": "3"}
    settled = settle_exchange(data)
    assert settled.changes == {"situation.occupied_angles": None}  # None: the field shows its default, blank
    assert any("Angles occupés effacés" in note for note in settled.notes)


def test_the_adjust_lines_read_a_blank_number_as_the_rule() -> None:
    from bestiary.feerie import lines

    blow = lines.french(lines.blow)({"blows.{row}.kind": "faire_tomber", "blows.{row}.attack_malus": ""})
    assert blow == "Faire tomber\u202f: Attaque −6, effet 4"
    pace = lines.french(lines.movement)({"situation.movement.pace": "course", "situation.movement.malus": ""})
    assert pace == "Course\u202f: coordination −8, charge +4 aux Dommages, distance (Habileté + Taille)/2"
