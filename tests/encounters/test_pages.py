"""The encounter pages, whatever the rule system: ownership, versions (two tabs), htmx partials,
French messages on bad input with the form kept, exports and re-import, the log."""

import json

import pytest
from django.test import Client

from encounters import services
from encounters.models import Combatant, Encounter
from tests.encounters.helpers import add, advance, detail_url, open_calculator, redo, resolve, states, undo
from tests.factories_encounters import CombatantFactory, EncounterFactory, UserFactory
from tests.pages import folded, text

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
PC = {"name": "Aldric", "attribute": 3, "weapon": 3, "armour": 1, "sante": 8, "sante_max": 8}
NPC = {"name": "Arbalétrier", "menace": 2, "sante": 4, "sante_max": 4, "weapon": 3}


@pytest.fixture
def encounter(client):
    encounter = EncounterFactory(system="encore", clock={"turn": 1})
    client.force_login(encounter.owner)
    return encounter


@pytest.fixture
def fighters(encounter):
    aldric = CombatantFactory(encounter=encounter, kind="pj", state=PC)
    bolt = CombatantFactory(encounter=encounter, kind="pnj", state=NPC)
    return aldric, bolt


def every_url(encounter, combatant):
    base = detail_url(encounter)
    gets = [base, f"{base}act/?page=encore", f"{base}log.md", f"{base}log.json", f"{base}export.json"]
    posts = [
        f"{base}apply/",
        f"{base}advance/",
        f"{base}undo/",
        f"{base}redo/",
        f"{base}clock/",
        f"{base}delete/",
        f"{base}combatants/",
        f"{base}combatants/{combatant.pk}/",
        f"{base}combatants/{combatant.pk}/adjust/",
        f"{base}combatants/{combatant.pk}/remove/",
    ]
    return gets, posts


def test_anonymous_visitors_are_sent_to_the_login_page():
    encounter = EncounterFactory()
    combatant = CombatantFactory(encounter=encounter)
    anonymous = Client()
    gets, posts = every_url(encounter, combatant)
    for url in ["/encounters/", *gets]:
        response = anonymous.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith("/accounts/login/?next=")
    for url in posts:
        assert anonymous.post(url, {"version": encounter.version}).status_code == 302, url
    assert Encounter.objects.filter(pk=encounter.pk).exists()


def test_another_game_master_can_neither_see_nor_change_an_encounter(fighters, encounter):
    intruder = Client()
    intruder.force_login(UserFactory())
    gets, posts = every_url(encounter, fighters[0])
    for url in gets:
        assert intruder.get(url).status_code == 404, url
    for url in posts:
        assert intruder.post(url, {"version": encounter.version, "delta": "1", "field": "sante"}).status_code == 404, (
            url
        )
    encounter.refresh_from_db()
    assert encounter.version == 1
    assert encounter.log.count() == 0
    assert Combatant.objects.filter(encounter=encounter, present=True).count() == 2
    assert "Rencontre" not in text(intruder.get("/encounters/")).split("Mes rencontres")[1].split("Nouvelle")[0]


def test_the_list_shows_only_ones_own_encounters(client, encounter):
    other = EncounterFactory(name="Celle d'un autre")
    body = text(client.get("/encounters/"))
    assert encounter.name in body
    assert other.name not in body


def test_a_calculator_opened_with_anothers_encounter_stays_a_plain_calculator(client, fighters, encounter):
    url = open_calculator(client, encounter, "encore", pc=fighters[0])
    intruder = Client()
    intruder.force_login(UserFactory())
    body = intruder.get(url).content.decode()
    assert "encounter-banner" not in body
    assert encounter.name not in body
    anonymous = Client().get(url).content.decode()
    assert "encounter-banner" not in anonymous


def test_the_calculator_inside_an_encounter_names_it_and_its_cast(client, fighters, encounter):
    url = open_calculator(client, encounter, "encore", pc=fighters[0], npcs=fighters[1])
    page = client.get(url)
    body = text(page)
    assert f"Rencontre « {encounter.name} »" in body
    assert "PJ qui agit Aldric" in body
    assert "PNJ visés Arbalétrier" in body
    html = page.content.decode()
    assert f'name="_enc" value="{encounter.pk}"' in html
    assert 'name="pc.sante" value="8"' in html


def test_creating_an_encounter_needs_a_name_and_a_known_rule_system(client, encounter):
    response = client.post("/encounters/", {"system": "encore", "name": "  "})
    assert response.status_code == 422
    assert services.ERROR_NAME_REQUIRED in text(response)
    response = client.post("/encounters/", {"system": "inconnu", "name": "x"})
    assert response.status_code == 422
    assert "Sélectionnez un choix valide" in text(response)
    response = client.post("/encounters/", {"system": "encore", "name": "La taverne"})
    assert response.status_code == 303
    created = Encounter.objects.get(name="La taverne")
    assert created.owner == encounter.owner
    assert created.clock == {"turn": 1, "ambush": "aucune", "engaged": False}


def test_a_stale_tab_is_refused_with_the_fresh_state(client, fighters, encounter):
    old_version = encounter.version
    assert advance(client, encounter).status_code == 303  # first tab: end of turn 1
    response = client.post(f"{detail_url(encounter)}advance/", {"version": old_version})  # second tab
    assert response.status_code == 409
    body = text(response)
    assert folded(services.ERROR_STALE) in body
    assert "Tour 2" in body  # the fresh state
    encounter.refresh_from_db()
    assert encounter.clock["turn"] == 2
    assert encounter.log.count() == 1


def test_a_stale_edit_keeps_what_was_typed(client, fighters, encounter):
    aldric = fighters[0]
    version = encounter.version
    advance(client, encounter)
    response = client.post(
        f"{detail_url(encounter)}combatants/{aldric.pk}/",
        {
            "version": version,
            f"c{aldric.pk}-name": "Aldric le Brave",
            f"c{aldric.pk}-sante": "6",
            f"c{aldric.pk}-sante_max": "8",
        },
    )
    assert response.status_code == 409
    html = response.content.decode()
    assert 'value="Aldric le Brave"' in html
    assert states(encounter)["Aldric"]["sante"] == 8


def test_a_stale_htmx_change_answers_the_fresh_partial(client, fighters, encounter):
    response = client.post(f"{detail_url(encounter)}advance/", {"version": encounter.version - 1 or 99}, **HTMX)
    assert response.status_code == 409
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="encounter"')
    assert folded(services.ERROR_STALE) in text(response)


def test_an_htmx_change_answers_the_encounter_partial_and_its_url(client, fighters, encounter):
    response = client.post(f"{detail_url(encounter)}advance/", {"version": encounter.version}, **HTMX)
    assert response.status_code == 200
    assert response.content.decode().lstrip().startswith('<div id="encounter"')
    assert response["HX-Push-Url"] == detail_url(encounter)
    assert "<html" not in response.content.decode()


def test_a_hand_edit_is_checked_by_the_rules_and_the_form_comes_back_filled(client, fighters, encounter):
    aldric = fighters[0]
    response = client.post(
        f"{detail_url(encounter)}combatants/{aldric.pk}/",
        {
            "version": encounter.version,
            f"c{aldric.pk}-name": "Aldric",
            f"c{aldric.pk}-sante": "12",
            f"c{aldric.pk}-sante_max": "8",
            f"c{aldric.pk}-attribute": "abc",
        },
    )
    assert response.status_code == 422
    body = text(response)
    assert "Attribut (dés) : nombre entier attendu." in body
    html = response.content.decode()
    assert 'value="abc"' in html
    assert 'value="12"' in html
    assert states(encounter)["Aldric"]["sante"] == 8


def test_a_hand_edit_is_logged_and_undone(client, fighters, encounter):
    aldric = fighters[0]
    data = {f"c{aldric.pk}-{k}": str(v) for k, v in {**PC, "sante": 5, "stress": 2}.items()}
    response = client.post(f"{detail_url(encounter)}combatants/{aldric.pk}/", {"version": encounter.version, **data})
    assert response.status_code == 303
    assert states(encounter)["Aldric"]["sante"] == 5
    entry = encounter.log.get()
    assert entry.action == "edit"
    assert "Aldric — Santé\u202f: 8 → 5" in entry.lines
    assert "Aldric — Stress\u202f: 0 → 2" in entry.lines
    undo(client, encounter)
    assert states(encounter)["Aldric"]["sante"] == 8


def test_gauge_buttons_step_one_and_refuse_to_go_beyond_a_bound(client, fighters, encounter):
    aldric = fighters[0]
    url = f"{detail_url(encounter)}combatants/{aldric.pk}/adjust/"
    assert client.post(url, {"version": encounter.version, "field": "sante", "delta": "-1"}).status_code == 303
    assert states(encounter)["Aldric"]["sante"] == 7
    encounter.refresh_from_db()
    client.post(url, {"version": encounter.version, "field": "sante", "delta": "1"})
    encounter.refresh_from_db()
    response = client.post(url, {"version": encounter.version, "field": "sante", "delta": "1"})
    assert response.status_code == 422
    assert "ne peut dépasser la Santé maximale (8)" in text(response)
    assert states(encounter)["Aldric"]["sante"] == 8
    encounter.refresh_from_db()
    for bad in ({"field": "sante", "delta": "5"}, {"field": "nope", "delta": "1"}):
        response = client.post(url, {"version": encounter.version, **bad})
        assert response.status_code == 422
    encounter.refresh_from_db()
    assert encounter.log.count() == 2


def test_an_npc_gauge_without_a_value_starts_from_what_it_shows(client, fighters, encounter):
    bolt = fighters[1]
    url = f"{detail_url(encounter)}combatants/{bolt.pk}/adjust/"
    client.post(url, {"version": encounter.version, "field": "attacks_left", "delta": "-1"})
    assert states(encounter)["Arbalétrier"]["attacks_left"] == 1


def test_adding_combatants_refuses_bad_counts_and_unknown_entries_with_the_form_filled(client, encounter):
    response = add(client, encounter, kind="pj", name="Brenna", count="0")
    assert response.status_code == 422
    assert "Combien : un nombre entier entre 1 et 12." in text(response)
    assert 'value="Brenna"' in response.content.decode()
    response = add(client, encounter, kind="pnj", preset="pnj:99999", count="1")
    assert response.status_code == 422
    assert services.ERROR_NO_PRESET in text(response)
    response = add(client, encounter, kind="dragon", name="x", count="1")
    assert response.status_code == 422
    assert encounter.combatants.count() == 0


def test_several_copies_join_in_one_step_and_leave_in_one_undo(client, encounter):
    response = add(client, encounter, kind="pnj", name="Gobelin", count="3")
    assert response.status_code == 303
    assert sorted(states(encounter)) == ["Gobelin 1", "Gobelin 2", "Gobelin 3"]
    assert encounter.log.get().title == "Gobelin 1, Gobelin 2 et Gobelin 3 rejoignent la rencontre (PNJ)"
    undo(client, encounter)
    assert states(encounter) == {}


def test_a_removed_combatant_comes_back_as_it_was_on_undo(client, fighters, encounter):
    bolt = fighters[1]
    client.post(
        f"{detail_url(encounter)}combatants/{bolt.pk}/adjust/",
        {"version": encounter.version, "field": "sante", "delta": "-1"},
    )
    encounter.refresh_from_db()
    client.post(f"{detail_url(encounter)}combatants/{bolt.pk}/remove/", {"version": encounter.version})
    assert "Arbalétrier" not in states(encounter)
    undo(client, encounter)
    assert states(encounter)["Arbalétrier"]["sante"] == 3


def test_a_new_change_after_undo_drops_what_could_have_been_redone(client, fighters, encounter):
    advance(client, encounter)
    advance(client, encounter)
    undo(client, encounter)
    assert encounter.log.filter(undone=True).count() == 1
    advance(client, encounter)
    assert encounter.log.filter(undone=True).count() == 0
    assert redo(client, encounter).status_code == 409
    assert list(encounter.log.values_list("seq", flat=True)) == [1, 2]


def test_undo_and_redo_say_so_when_there_is_nothing_to_do(client, encounter):
    response = undo(client, encounter)
    assert response.status_code == 409
    assert services.ERROR_NOTHING_TO_UNDO in text(response)
    response = redo(client, encounter)
    assert services.ERROR_NOTHING_TO_REDO in text(response)
    encounter.refresh_from_db()
    assert encounter.version == 1


def test_the_turn_can_be_set_by_hand_and_is_checked(client, encounter):
    url = f"{detail_url(encounter)}clock/"
    response = client.post(url, {"version": encounter.version, "clock-turn": "-3", "clock-ambush": "aucune"})
    assert response.status_code == 422
    assert "Tour : doit être entre 0 et 999 (reçu −3)." in text(response)  # U+2212 (issue 15)
    assert 'value="-3"' in response.content.decode()
    response = client.post(url, {"version": encounter.version, "clock-turn": "0", "clock-ambush": "pj"})
    assert response.status_code == 303
    encounter.refresh_from_db()
    assert encounter.clock == {"turn": 0, "ambush": "pj", "engaged": False}
    assert "Embuscade, avant le premier tour" in text(client.get(detail_url(encounter)))


def test_acting_needs_the_required_roles_and_combatants_of_the_right_kind(client, fighters, encounter):
    aldric, bolt = fighters
    base = f"{detail_url(encounter)}act/"
    response = client.get(base, {"page": "encore", "role.npcs": str(bolt.pk)})
    assert response.status_code == 422
    assert "PJ qui agit : choisissez un combattant." in text(response)
    response = client.get(base, {"page": "encore", "role.pc": str(bolt.pk)})
    assert "PJ qui agit : Arbalétrier ne peut pas tenir ce rôle." in text(response)
    response = client.get(base, {"page": "encore", "role.pc": str(aldric.pk), "role.opponent": str(aldric.pk)})
    assert "Aldric ne peut tenir deux rôles dans le même échange." in text(response)
    response = client.get(base, {"page": "nephilim", "role.pc": str(aldric.pk)})
    assert services.ERROR_UNKNOWN_PAGE in text(response)
    other = CombatantFactory(state=PC)
    response = client.get(base, {"page": "encore", "role.pc": str(other.pk)})
    assert services.ERROR_UNKNOWN_COMBATANT in text(response)


def test_applying_a_result_twice_is_refused_as_stale(client, fighters, encounter):
    from tests.encounters.helpers import apply

    url = open_calculator(client, encounter, "encore", pc=fighters[0], npcs=fighters[1])
    page = resolve(client, url, {"pc.1": 5, "pc.2": 6, "pc.3": 5})
    assert apply(client, page).status_code == 303
    response = apply(client, page)
    assert response.status_code == 409
    assert "Revenir au résultat" in text(response)
    assert encounter.log.count() == 1


def test_applying_something_that_is_not_a_result_is_a_clear_400(client, fighters, encounter):
    response = client.post(
        f"{detail_url(encounter)}apply/",
        {"version": encounter.version, "page": "encore", "q": "_f=1&pc.attribute=3", "role.pc": str(fighters[0].pk)},
    )
    assert response.status_code == 400
    assert "Aucun résultat" in text(response)
    response = client.post(
        f"{detail_url(encounter)}apply/",
        {
            "version": encounter.version,
            "page": "encore",
            "q": "_f=1&pc.attribute=99&seed=1",
            "role.pc": str(fighters[0].pk),
        },
    )
    assert response.status_code == 400
    assert "Attribut (dés) : doit être entre 0 et 10 (reçu 99)." in text(response)


def test_the_log_reads_as_a_story_and_as_technical_lines(client, fighters, encounter):
    from tests.encounters.helpers import play

    play(client, encounter, "encore", {"pc": fighters[0], "npcs": fighters[1]}, {"pc.1": 5, "pc.2": 1, "pc.3": 1})
    body = client.get(detail_url(encounter)).content.decode()
    assert 'id="log-story"' in body
    assert 'id="log-technical"' in body
    entry = encounter.log.get()
    assert entry.story  # the calculator's récit
    assert entry.lines[-1].startswith("Dés\u202f: 5 1 1 (graine ")
    assert entry.lines[-1].endswith("\u202f; *\u202f: lancé par le serveur)")
    assert entry.permalink.startswith("/encore/?")
    markdown = client.get(f"{detail_url(encounter)}log.md")
    assert markdown["Content-Type"] == "text/markdown; charset=utf-8"
    md = markdown.content.decode()
    assert f"# {encounter.name}" in md
    assert "## 1. Aldric contre Arbalétrier\u202f: Réussite partielle" in md
    assert "- Arbalétrier — Santé\u202f: 4 → 1" in md
    assert "Technique\u202f:" in md
    assert "[Rejouer ce résultat](http://testserver/encore/?" in md
    log = json.loads(client.get(f"{detail_url(encounter)}log.json").content)
    assert log["entries"][0]["title"] == entry.title
    assert log["entries"][0]["changes"][0]["before"]["state"]["sante"] in (8, 4)


def test_an_exported_encounter_comes_back_whole_and_its_history_still_undoes(client, fighters, encounter):
    from tests.encounters.helpers import play

    play(client, encounter, "encore", {"pc": fighters[0], "npcs": fighters[1]}, {"pc.1": 5, "pc.2": 1, "pc.3": 1})
    advance(client, encounter)
    data = client.get(f"{detail_url(encounter)}export.json").content
    response = client.post("/encounters/import/", {"text": data.decode()})
    assert response.status_code == 303
    copy = Encounter.objects.exclude(pk=encounter.pk).get()
    assert copy.owner == encounter.owner
    assert copy.clock == encounter.clock
    assert states(copy) == states(encounter)
    assert [e.title for e in copy.log.all()] == [e.title for e in encounter.log.all()]
    undo(client, copy)
    undo(client, copy)
    assert states(copy)["Aldric"]["sante"] == 8
    assert states(copy)["Arbalétrier"]["sante"] == 4
    assert states(encounter)["Arbalétrier"]["sante"] == 1  # the original is untouched


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ("{pas du json", "Ce fichier n'est pas du JSON lisible"),
        ('{"format": "autre"}', "n'est pas un export de rencontre Estoc"),
        ('{"format": "estoc.encounter", "version": 9}', "Version d'export inconnue (9)"),
        ('{"format": "estoc.encounter", "version": 1, "system": "échecs", "name": "x"}', "Système de règles inconnu"),
        (
            '{"format": "estoc.encounter", "version": 1, "system": "encore", "name": "x", "combatants": '
            '[{"key": "c1", "kind": "pj", "state": {"name": "A", "sante": 9, "sante_max": 8}}]}',
            "Combattant n° 1 : Santé : ne peut dépasser la Santé maximale (8).",
        ),
        (
            '{"format": "estoc.encounter", "version": 1, "system": "encore", "name": "x", "combatants": [], '
            '"log": [{"action": "apply", "changes": [{"combatant": "c7", "before": {}, "after": {}}]}]}',
            "Entrée du journal n° 1 : combattant « c7 » inconnu.",
        ),
        (
            '{"format": "estoc.encounter", "version": 1, "system": "encore", "name": ""}',
            "Donnez un nom à la rencontre.",
        ),
        ("", "Choisissez un fichier exporté, ou collez son contenu."),
    ],
)
def test_a_bad_import_gets_a_french_message_and_creates_nothing(client, encounter, payload, message):
    response = client.post("/encounters/import/", {"text": payload})
    assert response.status_code == 400
    assert message in text(response)
    assert Encounter.objects.count() == 1


def test_an_uploaded_export_file_is_imported(client, fighters, encounter):
    from django.core.files.uploadedfile import SimpleUploadedFile

    data = client.get(f"{detail_url(encounter)}export.json").content
    response = client.post("/encounters/import/", {"file": SimpleUploadedFile("r.json", data, "application/json")})
    assert response.status_code == 303
    assert Encounter.objects.count() == 2


def test_every_encounter_post_needs_the_csrf_token(fighters, encounter):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(encounter.owner)
    _gets, posts = every_url(encounter, fighters[0])
    for url in posts:
        assert browser.post(url, {"version": encounter.version}).status_code == 403, url
        assert browser.post(url, {"version": encounter.version}, **HTMX).status_code == 403, url
    assert browser.post("/encounters/", {"system": "encore", "name": "x"}).status_code == 403
    assert browser.post("/encounters/import/", {"text": "{}"}).status_code == 403


def test_deleting_an_encounter_takes_its_combatants_and_log(client, fighters, encounter):
    advance(client, encounter)
    response = client.post(f"{detail_url(encounter)}delete/")
    assert response.status_code == 303
    assert not Encounter.objects.filter(pk=encounter.pk).exists()
    assert not Combatant.objects.filter(encounter_id=encounter.pk).exists()


def test_two_changes_from_the_same_version_cannot_both_land(fighters, encounter):
    services.encounter_advance(encounter=encounter, version=1)
    stale = Encounter.objects.get(pk=encounter.pk)
    stale.version = 1
    with pytest.raises(services.StaleEncounter):
        services.encounter_advance(encounter=stale, version=1)
    encounter.refresh_from_db()
    assert encounter.version == 2
    assert encounter.clock["turn"] == 2


def test_a_sheets_list_shows_its_rows_adds_one_on_demand_and_deletes_a_ticked_one(client, fighters, encounter):
    bolt = fighters[1]
    prefix = f"c{bolt.pk}-"
    url = f"{detail_url(encounter)}combatants/{bolt.pk}/"
    page = client.get(detail_url(encounter)).content.decode()
    assert f'name="{prefix}advantages.0.effect"' not in page  # no advantage: no row
    base = {f"{prefix}{k}": str(v) for k, v in NPC.items()} | {"version": str(encounter.version)}
    response = client.post(url, {**base, "_add": "advantages"})
    assert response.status_code == 200  # the sheet again, one row longer, nothing saved
    assert f'name="{prefix}advantages.0.effect"' in response.content.decode()
    assert encounter.log.count() == 0
    two = {
        **base,
        f"{prefix}advantages.0.effect": "à terre",
        f"{prefix}advantages.0.by": "Aldric",
        f"{prefix}advantages.1.effect": "désarmé",
        f"{prefix}advantages.1.by": "Brenna",
    }
    assert client.post(url, two).status_code == 303
    assert [a["effect"] for a in states(encounter)["Arbalétrier"]["advantages"]] == ["à terre", "désarmé"]
    encounter.refresh_from_db()
    delete_first = {**two, "version": str(encounter.version), f"{prefix}advantages.0._del": "on"}
    assert client.post(url, delete_first).status_code == 303
    assert states(encounter)["Arbalétrier"]["advantages"] == [{"effect": "désarmé", "by": "Brenna", "until_turn": None}]


# --- issue 15: names in the log said with their grammar ---------------------------------------------


def test_combatants_named_after_their_kind_are_said_as_common_nouns(client, encounter):
    """A blank combatant takes its kind's label as a common noun (« le PJ 1 », « le personnage »),
    with a definite grammar; the log names each with its article and joins them with « et »."""
    assert add(client, encounter, kind="pj", count="2").status_code == 303
    entry = encounter.log.get()
    assert entry.title == "Le PJ 1 et le PJ 2 rejoignent la rencontre"
    pj = encounter.combatants.get(name="PJ 1")
    assert pj.state["grammar"]["article"] == "defini"
    assert services.kind_noun("Personnage") == "personnage"
    assert services.kind_noun("PNJ") == "PNJ"


def test_the_log_says_a_bestiary_name_with_its_article(client, encounter):
    """« L'Orc quitte la rencontre », « l'Orc contre Aldric » — never « Orc quitte »."""
    orc = CombatantFactory(
        encounter=encounter,
        kind="pnj",
        state={**NPC, "name": "Orc", "grammar": {"article": "defini", "gender": "m", "elision": "auto"}},
    )
    response = client.post(f"{detail_url(encounter)}combatants/{orc.pk}/remove/", {"version": encounter.version})
    assert response.status_code == 303
    assert encounter.log.get().title == "L'Orc quitte la rencontre"


def test_a_role_limit_counts_its_combatants_in_french(encounter):
    """« au plus 1 combattant », never « combattant(s) » (issue 15)."""
    from rulesets.core import encounter as core

    rules = services.rules_for(encounter)
    page = rules.page("encore")
    pcs = [CombatantFactory(encounter=encounter, kind="pj", state={**PC, "name": f"PJ {i}"}) for i in range(2)]
    with pytest.raises(services.ScenarioError) as err:
        services.bindings_parse(encounter, page, {"pc": [c.key for c in pcs]})
    message = err.value.errors["role.pc"]
    assert "au plus 1\u00a0combattant." in message
    assert "(s)" not in message
    assert isinstance(page.role("pc"), core.Role)
