"""Issue 16: an import checks its « Rejouer » links (only the site's calculator), names the copy
« … (importée) », refuses over-long texts instead of cutting them; the list shows turn and cast."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from calculator import short_links
from encounters import exports
from encounters.links import safe_replay_link
from encounters.models import Combatant, Encounter, LogEntry
from tests.encounters.helpers import advance, detail_url
from tests.factories_encounters import CombatantFactory, EncounterFactory
from tests.pages import folded, text

pytestmark = pytest.mark.django_db

PC = {"name": "Aldric", "attribute": 3, "weapon": 3, "armour": 1, "sante": 8, "sante_max": 8}
NPC = {"name": "Arbalétrier", "menace": 2, "sante": 4, "sante_max": 4, "weapon": 3}
REPLAY = "/encore/?_f=1&pc.attribute=3&seed=7&r=1"
UNSAFE = "Entrée du journal n° 1\u202f: le lien «\u202frejouer\u202f» doit être un lien du calculateur de ce site."


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


def export_with_link(client, encounter, link):
    """The encounter's export, its one log entry (« Fin du tour ») carrying ``link`` to replay."""
    advance(client, encounter)
    data = exports.encounter_data(encounter)
    data["log"][0]["detail"] = {"permalink": link}
    return data


def post(client, data):
    return client.post("/encounters/import/", {"text": json.dumps(data)})


def imported(encounter):
    return Encounter.objects.exclude(pk=encounter.pk).get(owner=encounter.owner)


# --- the « Rejouer » link ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "link",
    [
        "javascript:alert(document.cookie)",
        "JavaScript:alert(1)",
        " javascript:alert(1)",
        "https://evil.example/x",
        "//evil.example/",
        "/\\evil.example/",
        "/admin/",
        "/encounters/1/",
        "/inconnu/?_f=1",  # no such ruleset
        "/feerie/inconnu/?_f=1",
        "/encore/?a=1 b",
        "/encore/?a=1\tb",
        "/encore/?a=1\nb",
        "/encore/?a=)[x](javascript:alert(1))",  # would end the Markdown link and start another
        "/p/..",
        "/p/%2e%2e",
        "encore/?_f=1",  # relative to the page, not the site
    ],
)
def test_an_import_whose_replay_link_leaves_the_calculator_is_refused(client, fighters, encounter, link):
    response = post(client, export_with_link(client, encounter, link))
    assert response.status_code == 400
    assert folded(UNSAFE) in text(response)
    assert Encounter.objects.count() == 1
    assert "Rejouer ce résultat" not in response.content.decode()  # the pasted text stays, never as a link


@pytest.mark.parametrize("detail", [{"permalink": 42}, {"permalink": None}, {"permalink": ["/encore/"]}])
def test_a_replay_link_that_is_not_text_is_refused(client, fighters, encounter, detail):
    data = export_with_link(client, encounter, "")
    data["log"][0]["detail"] = detail
    response = post(client, data)
    assert response.status_code == 400
    assert folded("Entrée du journal n° 1\u202f: le lien «\u202frejouer\u202f» doit être un texte.") in text(response)
    assert Encounter.objects.count() == 1


@pytest.mark.parametrize("detail", ["/encore/", ["permalink"], 3])
def test_a_detail_that_is_not_an_object_is_refused(client, fighters, encounter, detail):
    data = export_with_link(client, encounter, "")
    data["log"][0]["detail"] = detail
    response = post(client, data)
    assert response.status_code == 400
    assert folded("Entrée du journal n° 1\u202f: détail\u202f: objet attendu.") in text(response)
    assert Encounter.objects.count() == 1


@pytest.mark.parametrize("link", [REPLAY, REPLAY + "#result", "/p/abc", "/feerie/action/?_f=1&seed=3&r=1"])
def test_a_link_to_the_calculator_or_a_short_link_is_imported_and_shown(client, fighters, encounter, link):
    response = post(client, export_with_link(client, encounter, link))
    assert response.status_code == 303, text(response)[:2000]
    copy = imported(encounter)
    assert copy.log.get().permalink == link
    page = client.get(detail_url(copy)).content.decode()
    assert f'<a href="{link.replace("&", "&amp;")}">Rejouer ce résultat dans le calculateur</a>' in page
    markdown = client.get(f"{detail_url(copy)}log.md").content.decode()
    assert f"[Rejouer ce résultat](http://testserver{link})" in markdown


def test_an_entry_without_a_link_imports_without_one(client, fighters, encounter):
    response = post(client, export_with_link(client, encounter, ""))
    assert response.status_code == 303
    assert imported(encounter).log.get().permalink == ""


def test_the_links_the_site_writes_are_safe():
    """A permalink, its compact form and its short link (calculator/short_links.py) all pass."""
    assert safe_replay_link(REPLAY)
    long = "/feerie/action/?_f=1&" + "&".join(f"f.x{i}=une+valeur+%C3%A9crite" for i in range(400)) + "&seed=3&r=1"
    compact = short_links.fit(long)
    assert compact.startswith("/feerie/action/?")
    assert "z=" in compact
    assert safe_replay_link(compact)
    short = short_links.fit(long, limit=40)
    assert short.startswith(short_links.SHORT_PREFIX)
    assert safe_replay_link(short)
    assert not safe_replay_link("")
    assert not safe_replay_link(None)


def test_a_stored_row_with_a_bad_link_shows_none(client, fighters, encounter):
    """Defence in depth: a row written before the import checked its links."""
    LogEntry.objects.create(
        encounter=encounter,
        seq=1,
        action=LogEntry.Action.ADVANCE,
        title="Tour suivant",
        clock_label="Tour 1",
        detail={"permalink": "javascript:alert(document.cookie)"},
    )
    assert encounter.log.get().permalink == ""
    page = client.get(detail_url(encounter)).content.decode()
    assert "javascript:" not in page
    assert "Rejouer ce résultat dans le calculateur" not in page
    markdown = client.get(f"{detail_url(encounter)}log.md").content.decode()
    assert "javascript:" not in markdown
    assert "Rejouer" not in markdown
    # exported without it, so that the export imports back
    exported = client.get(f"{detail_url(encounter)}export.json").content.decode()
    assert "javascript:" not in exported
    assert client.post("/encounters/import/", {"text": exported}).status_code == 303


# --- the copy's name -----------------------------------------------------------------------------


def test_an_import_next_to_its_original_is_named_as_a_copy(client, fighters, encounter):
    data = exports.encounter_data(encounter)
    assert post(client, data).status_code == 303
    assert post(client, data).status_code == 303
    assert post(client, data).status_code == 303
    names = set(Encounter.objects.filter(owner=encounter.owner).values_list("name", flat=True))
    assert names == {
        encounter.name,
        f"{encounter.name} (importée)",
        f"{encounter.name} (importée 2)",
        f"{encounter.name} (importée 3)",
    }


def test_the_copy_of_a_copy_counts_on(client, fighters, encounter):
    data = exports.encounter_data(encounter)
    assert post(client, data).status_code == 303
    copy = Encounter.objects.get(name=f"{encounter.name} (importée)")
    assert post(client, exports.encounter_data(copy)).status_code == 303
    assert Encounter.objects.filter(name=f"{encounter.name} (importée 2)").exists()


def test_an_import_into_another_account_keeps_its_name(client, fighters, encounter):
    from tests.factories_encounters import UserFactory

    data = exports.encounter_data(encounter)
    client.force_login(UserFactory())
    assert post(client, data).status_code == 303
    assert Encounter.objects.exclude(pk=encounter.pk).get().name == encounter.name


def test_a_long_name_is_shortened_with_an_ellipsis_before_its_suffix(client, encounter):
    encounter.name = "Bataille " + "x" * 111
    encounter.save()
    assert len(encounter.name) == 120
    data = exports.encounter_data(encounter)
    assert post(client, data).status_code == 303
    assert post(client, data).status_code == 303
    copies = sorted(Encounter.objects.exclude(pk=encounter.pk).values_list("name", flat=True))
    assert [len(n) for n in copies] == [120, 120]
    assert copies[0].endswith("x… (importée)")
    assert copies[1].endswith("x… (importée 2)")
    assert all(n.startswith("Bataille xxx") for n in copies)


# --- texts too long: refused, never cut ----------------------------------------------------------


@pytest.mark.parametrize(
    ("combatant", "message"),
    [
        # the name its rules keep (encore: 60 characters)
        ({"key": "c1", "kind": "pj", "state": {**PC, "name": "A" * 61}}, "Nom du PJ : 60 caractères au plus."),
        # a state without a name: the export's own, as long as the encounter keeps
        (
            {"key": "c1", "kind": "pj", "name": "A" * 121, "state": {**PC, "name": ""}},
            "nom\u202f: 120\u00a0caractères au plus (121 reçus).",
        ),
    ],
)
def test_an_over_long_combatant_name_is_refused(client, encounter, combatant, message):
    data = exports.encounter_data(encounter)
    data["combatants"] = [combatant]
    response = post(client, data)
    assert response.status_code == 400
    assert folded(f"Combattant n° 1\u202f: {message}") in text(response)
    assert Encounter.objects.count() == 1


@pytest.mark.parametrize(
    ("field", "length", "message"),
    [
        ("title", 301, "Entrée du journal n° 1\u202f: titre\u202f: 300\u00a0caractères au plus (301 reçus)."),
        ("clock_label", 121, "Entrée du journal n° 1\u202f: moment\u202f: 120\u00a0caractères au plus (121 reçus)."),
    ],
)
def test_an_over_long_entry_text_is_refused(client, fighters, encounter, field, length, message):
    data = export_with_link(client, encounter, "")
    data["log"][0][field] = "t" * length
    response = post(client, data)
    assert response.status_code == 400
    assert folded(message) in text(response)
    assert Encounter.objects.count() == 1


def test_texts_at_their_limit_come_back_whole(client, fighters, encounter):
    data = export_with_link(client, encounter, "")
    data["log"][0]["title"] = "t" * 300
    data["log"][0]["clock_label"] = "c" * 120
    data["combatants"][0]["state"]["name"] = "n" * 60
    assert post(client, data).status_code == 303
    copy = imported(encounter)
    entry = copy.log.get()
    assert (len(entry.title), len(entry.clock_label)) == (300, 120)
    assert copy.combatants.filter(name="n" * 60).exists()


# --- the list ------------------------------------------------------------------------------------


def listed(client, encounter):
    """The list's text for ``encounter``: from its name to the next « modifiée le »."""
    body = text(client.get("/encounters/"))
    return body.split(encounter.name, 1)[1].split("modifiée le", 1)[0]


def test_the_list_shows_the_turn_and_the_cast(client, fighters, encounter):
    CombatantFactory(encounter=encounter, kind="pnj", state={**NPC, "name": "parti"}, present=False)
    advance(client, encounter)
    item = listed(client, encounter)
    assert "Tour 2" in item
    assert "Aldric et Arbalétrier" in item
    assert "Parti" not in item
    assert "parti" not in item


def test_the_list_names_six_then_counts_the_others(client, encounter):
    names = ["aldric", "brune", "cassandre", "dorian", "elwen", "faustine", "gaspard", "hugues"]
    for name in names:
        CombatantFactory(encounter=encounter, kind="pj", state={**PC, "name": name})
    item = listed(client, encounter)
    assert "Aldric, Brune, Cassandre, Dorian, Elwen, Faustine et 2 autres" in item
    assert "Gaspard" not in item


def test_the_list_says_when_nobody_is_there(client, encounter):
    assert "aucun combattant" in listed(client, encounter)


def test_the_list_keeps_an_encounter_of_a_system_gone(client, encounter):
    gone = EncounterFactory(owner=encounter.owner, system="disparu", name="Vieille rencontre", clock={"x": 1})
    response = client.get("/encounters/")
    assert response.status_code == 200
    assert "disparu" in listed(client, gone)


def test_the_list_reads_the_cast_in_one_query_whatever_the_count(client, encounter):
    def queries():
        with CaptureQueriesContext(connection) as captured:
            assert client.get("/encounters/").status_code == 200
        return len(captured)

    CombatantFactory(encounter=encounter, kind="pj", state=PC)
    one = queries()
    for i in range(4):
        other = EncounterFactory(owner=encounter.owner, system="encore", clock={"turn": i + 1})
        CombatantFactory(encounter=other, kind="pj", state=PC)
        CombatantFactory(encounter=other, kind="pnj", state=NPC)
    assert queries() == one
    assert Combatant.objects.count() == 9


def test_the_cast_says_role_words_as_the_stories_do(client, encounter):
    """A proper name capitalised, a default role word (« personnage 2 ») in lower case after the
    first, a name typed with its article with it: careful French on the whole list page."""
    from tests.french_lint import assert_clean
    from tests.pages import visible_texts

    for name in ["personnage 1", "aldric", "Personnage 2", "La Bête du Gévaudan"]:
        CombatantFactory(encounter=encounter, kind="pj", state={**PC, "name": name[:60]}, name=name)
    assert "Personnage 1, Aldric, personnage 2 et la Bête du Gévaudan" in listed(client, encounter)
    assert_clean([(f"/encounters/ {where}", t) for where, t in visible_texts(client.get("/encounters/"))])
