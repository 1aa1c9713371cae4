"""Contes de Fées in an encounter: whole fights through the pages, Action after Action.

The seed's worked examples that span several Actions or carry malus (Rübezahl and the Serpent à
Sornettes, the extra attack at rank 9 or 12, the Pixie who changes his mind, the poignard de
cristal), surprise in the first Action only, impersonal events once per Action, the exchange page
with this Action's malus and the lasting effects of special blows, undo of a whole Action.
"""

import html
import re
from html.parser import HTMLParser

import pytest
from django.core.management import call_command

from bestiary.feerie.models import Creature
from calculator.tables import row_key
from encounters.models import Combatant
from tests.encounters.helpers import (
    add,
    advance,
    apply,
    chips_of,
    detail_url,
    lift_condition,
    open_calculator,
    redo,
    resolve,
    states,
    undo,
)
from tests.factories_encounters import EncounterFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def bestiary():
    call_command("loaddata", "fixtures/feerie.json", verbosity=0)


@pytest.fixture
def encounter(client):
    encounter = EncounterFactory(system="feerie", clock={"action": 1})
    client.force_login(encounter.owner)
    return encounter


# --- reading and driving the pages -------------------------------------------------------------------


class _FormReader(HTMLParser):
    """The fields a browser would submit for the form whose action is ``action``."""

    def __init__(self, action: str) -> None:
        super().__init__()
        self.action, self.inside, self.fields = action, False, {}
        self.select: str | None = None
        self.first_option: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.inside = a.get("action") == self.action
        if not self.inside:
            return
        name = a.get("name")
        if tag == "input" and name:
            if a.get("type") == "checkbox":
                if "checked" in a:
                    self.fields[name] = a.get("value") or "on"
            else:
                self.fields[name] = a.get("value") or ""
        elif tag == "select" and name:
            self.select, self.first_option = name, None
        elif tag == "option" and self.select is not None:
            if self.first_option is None:
                self.first_option = a.get("value", "")
            if "selected" in a:
                self.fields[self.select] = a.get("value", "")

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False
        if tag == "select" and self.select is not None:
            self.fields.setdefault(self.select, self.first_option or "")
            self.select = None


def form_fields(page_html: str, action: str) -> dict[str, str]:
    reader = _FormReader(action)
    reader.feed(page_html)
    assert reader.fields, f"no form {action} on the page"
    return reader.fields


def _with(fields: dict[str, str], prefix: str, changes: dict) -> dict[str, str]:
    data = dict(fields)
    for key, value in changes.items():
        name = f"{prefix}{key.replace('__', '.')}"
        if value is True:
            data[name] = "on"
        elif value is False:
            data.pop(name, None)
        else:
            data[name] = str(value)
    return data


def edit(client, encounter, combatant, **changes):
    """« Enregistrer la fiche » with the fields as the page shows them, and ``changes``."""
    action = f"{detail_url(encounter)}combatants/{combatant.pk}/"
    fields = form_fields(client.get(detail_url(encounter)).content.decode(), action)
    response = client.post(action, _with(fields, f"c{combatant.pk}-", changes))
    encounter.refresh_from_db()
    return response


def settings(client, encounter, **changes):
    """« Réglages de la rencontre » (the clock: the Action, the impersonal events)."""
    action = f"{detail_url(encounter)}clock/"
    fields = form_fields(client.get(detail_url(encounter)).content.decode(), action)
    response = client.post(action, _with(fields, "clock-", changes))
    encounter.refresh_from_db()
    return response


def applied(client, encounter, page_html):
    """« Appliquer à la rencontre », which must land."""
    response = apply(client, page_html)
    assert response.status_code == 303, response.content.decode()[:2000]
    encounter.refresh_from_db()


def played(client, encounter, page, roles, dice=None, **changes):
    """Open the calculator for ``roles``, resolve, apply; returns the result page's visible text."""
    page_html = resolve(client, open_calculator(client, encounter, page, **roles), dice, **changes)
    applied(client, encounter, page_html)
    return visible(page_html)


def visible(page_html: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page_html)))


def final(page_html: str) -> dict[str, str]:
    """The « Résultat final » numbers of a result page, by key."""
    return {
        k: html.unescape(v).strip() for k, v in re.findall(r'<dd data-key="([^"]+)">\s*(.*?)\s*</dd>', page_html, re.S)
    }


def creature(client, encounter, name, mode="m", as_name=""):
    """A bestiary entry joins (« au contact » ``m`` or « à distance » ``r``), by the key the page sends
    (issue 14): ``redcap.m``, ``wichtln-a-distance.r``."""
    side = Creature.objects.get(name=name).name + (" à distance" if mode == "r" else "")
    response = add(client, encounter, preset=f"attacker:{row_key(side)}.{mode}", name=as_name, count="1")
    assert response.status_code == 303, response.content.decode()[:2000]
    return encounter.combatants.order_by("-pk").first()


def typed(encounter, name, **state):
    """A Féerique typed in by the game master (Aspects, Attributs, Essence)."""
    data = {"name": name, "vigilance": 14, "habilete": 14, "puissance": 10, "resistance": 10, "essence": 20}
    data.update(state)
    data.setdefault("essence_max", data["essence"])
    return Combatant.objects.create(encounter=encounter, kind="feerique", name=name, state=data)


def last(encounter):
    return encounter.log.order_by("-seq").first()


def dice(**slots):
    """``dice(init_0=(10, 10))`` → the d20 + and d20 − of the dice term of ``init.0``."""
    out = {}
    for slot, (plus, minus) in slots.items():
        prefix = slot.replace("_", ".")
        out[f"{prefix}.plus.1"] = plus
        out[f"{prefix}.moins.1"] = minus
    return out


# --- the seed's Actions -------------------------------------------------------------------------------


def test_rubezahl_anticipates_the_serpent_and_the_next_action_owes_nothing_for_it(client, encounter):
    rubezahl = creature(client, encounter, "Rübezahl")
    serpent = creature(client, encounter, "Serpent à Sornettes", mode="r")
    assert edit(client, encounter, serpent, ranged=True).status_code == 303  # « à distance »: the hypnotic gaze
    fighters = [rubezahl, serpent]

    # Action 1: Initiative 15 against 17; Rübezahl anticipates two ranks to act at 17 with the Serpent,
    # first thanks to his Vigilance (20 > 17), at −2; his Défense stays at 16 − 2 = 14 for the Action.
    page = played(
        client,
        encounter,
        "feerie-action",
        {"fighters": fighters},
        dice(act_0=(5, 10), act_1=(10, 10)),
        fighters__0__initiative=15,
        fighters__1__initiative=17,
        activities__0__kind="attack",
        activities__0__label="frappe le Serpent avant d'être hypnotisé",
        activities__0__targets="1",
        activities__0__rank=17,
        activities__1__kind="attack",
        activities__1__label="tente d'hypnotiser Rübezahl",
        activities__1__targets="0",
    )
    assert "Rang 17 : Rübezahl frappe le Serpent avant d'être hypnotisé (anticipe de 2 rangs)" in page
    assert "Rübezahl : Attaque 21 −2 + dés −5 = 14" in page
    assert "Serpent à Sornettes (Défense 15) n'est pas touché : marge −1" in page
    assert "Rübezahl (Défense 14) est touché : marge +7, Essence perdue 0" in page
    s = states(encounter)
    assert (s["Rübezahl"]["initiative"], s["Serpent à Sornettes"]["initiative"]) == (15, 17)
    assert (s["Rübezahl"]["next_malus"], s["Serpent à Sornettes"]["next_malus"]) == (0, 0)
    assert s["Rübezahl"]["declarations"] == [
        {
            "label": "frappe le Serpent avant d'être hypnotisé",
            "targets": "Serpent à Sornettes",
            "other": False,
            "blunt": False,
            "aim": False,
            "bonus": None,
        }
    ]

    advance(client, encounter)
    assert encounter.clock["action"] == 2
    s = states(encounter)
    assert s["Rübezahl"]["carried_malus"] == 0  # « Le fait d'anticiper une activité est sans conséquence »
    assert s["Rübezahl"]["initiative"] is None

    # Action 2: the declarations are the starting point (no rank kept); the Serpent rolls 27, strikes
    # Rübezahl's full Défense 16; Rübezahl at 20: 21 against 15, ⌊6/2⌋ + 27 − 10 = 20, the Serpent falls.
    url = open_calculator(client, encounter, "feerie-action", fighters=fighters)
    assert "activities.0.rank" not in url
    assert "activities.0.targets=1" in url
    page_html = resolve(client, url, dice(init_0=(10, 10), init_1=(15, 5), act_0=(10, 10), act_1=(10, 10)))
    page = visible(page_html)
    assert "Rübezahl (Défense 16) est touché : marge +5, Essence perdue 0" in page
    assert "Serpent à Sornettes (Défense 15) est touché : marge +6, Essence perdue 20" in page
    applied(client, encounter, page_html)
    s = states(encounter)
    assert (s["Rübezahl"]["initiative"], s["Serpent à Sornettes"]["initiative"]) == (20, 27)
    assert s["Serpent à Sornettes"]["essence"] == 0
    assert s["Rübezahl"]["essence"] == 45
    assert s["Rübezahl"]["last_loss"] == 20
    assert s["Rübezahl"]["last_victim"] == "Serpent à Sornettes"
    body = visible(client.get(detail_url(encounter)).content.decode())
    assert "hors de combat" in body
    assert "Un seul Féerique garde de l'Essence" in body


@pytest.mark.parametrize(
    ("second_rank", "modifier", "defense_at_10", "moi_essence"),
    [
        # « Dès le rang 9 […] à –4, et je résisterai […] à partir du rang 9 avec une Défense diminuée de 4 »:
        # the Redcap strikes at rank 10, before: Défense 18, ⌊5/2⌋ + 13 − 10 = 5.
        (None, -4, 18, 15),
        # « dès le rang 12 […] à –7 (4+3) et ma Défense sera diminuée de 7 à partir du rang 12 »:
        # Défense 11 at rank 10, ⌊12/2⌋ + 13 − 10 = 9.
        (12, -7, 11, 11),
    ],
    ids=["rang_9", "rang_12"],
)
def test_an_extra_attack_costs_its_malus_now_and_minus_4_to_the_whole_next_action(
    client, encounter, second_rank, modifier, defense_at_10, moi_essence
):
    moi = typed(encounter, "Moi", vigilance=15, habilete=18, puissance=16)
    redcap = creature(client, encounter, "Redcap")
    fighters = [moi, redcap]
    extra = {"activities__2__rank": second_rank} if second_rank else {}
    page = played(
        client,
        encounter,
        "feerie-action",
        {"fighters": fighters},
        fighters__0__initiative=17,
        fighters__1__initiative=10,
        activities__0__kind="attack",
        activities__0__targets="1",
        activities__0__term=0,
        activities__1__kind="attack",
        activities__1__targets="0",
        activities__1__term=0,
        activities__2__actor=0,
        activities__2__kind="attack",
        activities__2__label="porte une seconde attaque",
        activities__2__targets="1",
        activities__2__term=0,
        **extra,
    )
    rank = second_rank or 9
    assert f"Rang {rank} : Moi porte une seconde attaque" in page
    assert f"Moi : Attaque 18 {modifier:+d} + dés +0 = {18 + modifier}".replace("-", "−") in page
    assert f"Moi (Défense {defense_at_10}) est touché" in page
    assert f"Moi : Défense {modifier:+d} pour le reste de l'Action".replace("-", "−") in page
    s = states(encounter)
    assert s["Moi"]["essence"] == moi_essence
    assert s["Redcap"]["essence"] == 25 - 3  # the first attack: 18 against 17, ⌊1/2⌋ + 16 − 13
    assert s["Moi"]["next_malus"] == -4
    assert s["Redcap"]["next_malus"] == 0
    assert (
        "Moi entrera dans l'Action 2 avec −4 à l'Initiative, à ses activités et à sa Défense." in last(encounter).story
    )

    advance(client, encounter)
    s = states(encounter)
    assert (s["Moi"]["carried_malus"], s["Moi"]["next_malus"]) == (-4, 0)
    assert "Moi commence l'Action 2 avec −4 à l'Initiative, à ses activités et à sa Défense." in last(encounter).story

    # Action 2: « mon jet d'Initiative de l'Action suivante se fera à –4 et ma Défense sera à –4 ainsi que
    # toutes mes activités ». The second declared attack is dropped at step 1.
    url = open_calculator(client, encounter, "feerie-action", fighters=fighters)
    assert "fighters.0.carried_malus=-4" in url
    page = played(
        client,
        encounter,
        "feerie-action",
        {"fighters": fighters},
        dice(init_0=(10, 10), init_1=(10, 10)),
        activities__0__term=0,
        activities__1__kind="none",
        activities__2__term=0,
    )
    assert "Moi : Malus reporté de l'Action précédente −4" in page
    assert "Moi : Attaque 18 −4 + dés +0 = 14" in page
    assert "Moi (Défense 14) est touché : marge +9, Essence perdue 7" in page
    s = states(encounter)
    assert s["Moi"]["initiative"] == 15 + 0 - 4
    assert s["Redcap"]["initiative"] == 14
    assert s["Moi"]["essence"] == moi_essence - 7
    assert s["Moi"]["next_malus"] == 0

    advance(client, encounter)
    assert states(encounter)["Moi"]["carried_malus"] == 0  # the malus lasts one Action
    assert "Moi ne traîne plus de malus." in last(encounter).story


def test_the_pixie_changes_his_mind_at_rank_19_and_pays_for_it_in_the_next_action(client, encounter):
    pixie = creature(client, encounter, "Pixie")
    lutin = creature(client, encounter, "Lutin")
    hippogriffe = creature(client, encounter, "Hippogriffe")
    fighters = [pixie, lutin, hippogriffe]
    # Bestiary Pixie: Défense 16 + 3 (Taille −3) + couardise 3 = 22; plafond de tactique 2 + 3 + 3 = 8.
    page = played(
        client,
        encounter,
        "feerie-action",
        {"fighters": fighters},
        fighters__0__initiative=17,
        fighters__1__initiative=19,
        fighters__2__initiative=8,
        fighters__0__tactic__initiative=-5,
        fighters__0__tactic__attack=5,
        activities__0__kind="other",
        activities__0__label="fuit à toutes jambes",
        activities__0__change__rank=19,
        activities__0__change__new_tactic=True,
        activities__0__change__tactic__attack=-5,
        activities__0__change__tactic__defense=5,
        activities__0__change__note="fuir",
        activities__1__kind="other",
        activities__1__label="hurle et réveille l'Hippogriffe",
    )
    # « il devrait donc agir à 17+5=22. Mais comme nous sommes déjà au rang 19, c'est à ce rang »
    assert "Rang 19 : le Pixie change d'intention (fuir) ; Défense +1" in page  # the bestiary's grammar
    assert "Rang 19 : le Pixie fuit à toutes jambes" in page
    s = states(encounter)
    assert s["Pixie"]["next_malus"] == -4
    assert s["Pixie"]["tactic"] == {"initiative": 0, "attack": -5, "defense": 5}  # the tactic in force
    assert s["Pixie"]["declarations"][0]["other"] is True
    assert s["Lutin"]["next_malus"] == 0

    advance(client, encounter)
    assert states(encounter)["Pixie"]["carried_malus"] == -4
    # Action 2: Initiative 14 + taquinerie 3 + 0 − 4 + 0 = 13; the awake Hippogriffe (12 + ouïe fine 2 = 14)
    # strikes the fleeing Pixie: Défense 22 + 5 − 4 = 23 against 16 + bec et serres 3 = 19.
    page = played(
        client,
        encounter,
        "feerie-action",
        {"fighters": fighters},
        dice(init_0=(10, 10), init_1=(10, 10), init_2=(10, 10), act_2=(10, 10)),
        activities__2__kind="attack",
        activities__2__label="fond sur le Pixie",
        activities__2__targets="0",
    )
    assert "Pixie : Malus reporté de l'Action précédente −4" in page
    assert "Pixie (Défense 23) n'est pas touché : marge −4" in page
    s = states(encounter)
    assert (s["Pixie"]["initiative"], s["Hippogriffe"]["initiative"], s["Lutin"]["initiative"]) == (13, 14, 14)
    assert s["Pixie"]["next_malus"] == 0


@pytest.mark.parametrize(
    ("breath_rank", "rank", "modifier", "defense"),
    [
        # « je ne pourrai donc agir qu'au rang 11 (13-2), et j'agirai à –4, mais j'ai une tactique de +2,
        # soit un modificateur final de –2. A partir du rang 15 […] ma Défense est à –6 »
        (None, 11, -2, 14 - 6),
        # « souffler dès le rang 15 […] je soufflerai à –6 […] un malus total de –10 (pour cette Action
        # uniquement) »
        (15, 15, -6, 14 - 10),
    ],
    ids=["rang_11", "anticipe_rang_15"],
)
def test_the_poignard_de_cristal_change_of_intention_over_two_actions(
    client, encounter, breath_rank, rank, modifier, defense
):
    poignard = {"name": "poignard de cristal", "kind": "accessoire", "value": 2, "attack": True}
    moi = typed(encounter, "Moi", vigilance=14, habilete=14, puissance=12, attributes=[poignard])
    compagnon = typed(encounter, "Compagnon", vigilance=16, habilete=16, puissance=16)
    gobelin = typed(encounter, "Gobelin", vigilance=10, habilete=8, essence=4)
    korrigan = typed(encounter, "Korrigan", vigilance=12, habilete=14)
    fighters = [moi, compagnon, gobelin, korrigan]
    breath = {"activities__0__rank": breath_rank} if breath_rank else {}
    page = played(
        client,
        encounter,
        "feerie-action",
        {"fighters": fighters},
        fighters__0__initiative=13,
        fighters__1__initiative=15,
        fighters__2__initiative=5,
        fighters__3__initiative=4,
        fighters__0__tactic__initiative=2,
        fighters__0__tactic__attack=-2,
        activities__0__kind="attack",
        activities__0__label="crache un souffle de flammes",
        activities__0__targets="3",
        activities__0__ranged=True,
        activities__0__term=0,
        activities__0__change__rank=15,
        activities__0__change__new_tactic=True,
        activities__0__change__tactic__attack=2,
        activities__0__change__tactic__defense=-2,
        activities__0__change__note="l'adversaire est hors de combat",
        activities__1__kind="attack",
        activities__1__label="abat le Gobelin",
        activities__1__targets="2",
        activities__1__term=0,
        **breath,
    )
    assert "Gobelin n'a plus d'Essence : hors de combat" in page
    assert "Rang 15 : Moi change d'intention (l'adversaire est hors de combat) ; Défense −6" in page
    assert f"Rang {rank} : Moi crache un souffle de flammes" in page
    assert f"Moi : Attaque 16 {modifier:+d} + dés +0 = {16 + modifier}".replace("-", "−") in page
    assert f"Moi Initiative 13, Défense {defense}, Essence 20, malus de l'Action suivante −4" in page
    s = states(encounter)
    assert s["Gobelin"]["essence"] == 0
    assert s["Moi"]["next_malus"] == -4
    assert s["Moi"]["tactic"] == {"initiative": 0, "attack": 2, "defense": -2}

    advance(client, encounter)
    # « Mon jet d'Initiative de l'Action suivante se fera à –4, et ma Défense sera à –4 ainsi que toutes
    # mes activités »: 14 + 0 − 4 + 0 = 10; Défense 14 − 2 (tactic) − 4 = 8 against the Korrigan's 14 + 0.
    url = open_calculator(client, encounter, "feerie-action", fighters=fighters)
    assert "fighters.0.carried_malus=-4" in url
    assert "fighters.2.defense=0" in url  # the Gobelin has no Essence: Défense zero
    page = played(
        client,
        encounter,
        "feerie-action",
        {"fighters": fighters},
        dice(init_0=(10, 10), init_1=(10, 10), init_2=(10, 10), init_3=(10, 10), act_0=(10, 10), act_2=(10, 10)),
        activities__1__kind="none",
        activities__2__kind="attack",
        activities__2__targets="0",
    )
    assert "Moi (Défense 8) est touché : marge +6" in page
    s = states(encounter)
    assert s["Moi"]["initiative"] == 10
    assert s["Moi"]["next_malus"] == 0


# --- surprise, impersonal events ----------------------------------------------------------------------


def test_a_surprised_lutin_is_slow_and_exposed_in_the_first_action_only(client, encounter):
    redcap = creature(client, encounter, "Redcap")
    lutin = creature(client, encounter, "Lutin")
    refused = edit(client, encounter, lutin, surprised=True, tactic__attack=2, tactic__defense=-2)
    assert refused.status_code == 422
    assert "Un personnage surpris ne peut pas déclarer de tactique lors de la première Action." in visible(
        refused.content.decode()
    )
    assert edit(client, encounter, lutin, surprised=True).status_code == 303
    assert "situation.surprised=on" in open_calculator(client, encounter, "feerie", attacker=redcap, defender=lutin)

    # Action 1: Initiative 14 − 8 = 6; Défense 16 − 4 = 12: 23 against 12, ⌊11/2⌋ + 13 − 8 = 10.
    page = played(
        client,
        encounter,
        "feerie-action",
        {"fighters": [redcap, lutin]},
        dice(init_0=(10, 10), init_1=(10, 10)),
        activities__0__kind="attack",
        activities__0__targets="1",
        activities__0__term=0,
    )
    assert "Lutin : Surpris −8" in page
    assert "Lutin (Défense 12) est touché : marge +11, Essence perdue 10" in page
    s = states(encounter)["Lutin"]
    assert (s["initiative"], s["essence"], s["surprised"]) == (6, 5, True)

    advance(client, encounter)
    assert "Le Lutin s'est remis de sa surprise." in last(encounter).story
    assert states(encounter)["Lutin"]["surprised"] is False

    # Action 2: no more surprise: Initiative 14, Défense 16; 18 against 16, ⌊2/2⌋ + 13 − 8 = 6.
    page = played(
        client,
        encounter,
        "feerie-action",
        {"fighters": [redcap, lutin]},
        dice(init_0=(10, 10), init_1=(10, 10), act_0=(5, 10)),
    )
    assert "Lutin : Surpris" not in page
    assert "Lutin (Défense 16) est touché : marge +2, Essence perdue 6" in page
    s = states(encounter)["Lutin"]
    assert (s["initiative"], s["essence"]) == (14, 0)


def test_an_impersonal_event_strikes_once_per_action_on_the_page_or_at_the_end_of_the_action(client, encounter):
    lutin = creature(client, encounter, "Lutin")
    farfadet = creature(client, encounter, "Farfadet")
    response = settings(
        client, encounter, events__0__label="La grange brûle", events__0__target="Lutin", events__0__essence_loss=3
    )
    assert response.status_code == 303
    assert encounter.clock["events"] == [
        {"label": "La grange brûle", "target": "Lutin", "essence_loss": 3, "done": False}
    ]
    assert "Au rang 0 de cette Action : La grange brûle." in visible(client.get(detail_url(encounter)).content.decode())

    # Action 1 on the Action page: the event is resolved at rank 0, after every activity
    url = open_calculator(client, encounter, "feerie-action", fighters=[lutin, farfadet])
    assert "impersonal.0.target=0" in url
    assert "impersonal.0.essence_loss=3" in url
    page = played(
        client, encounter, "feerie-action", {"fighters": [lutin, farfadet]}, dice(init_0=(10, 10), init_1=(10, 10))
    )
    assert "Rang 0 : La grange brûle (le Lutin)" in page
    assert states(encounter)["Lutin"]["essence"] == 12
    assert encounter.clock["events"][0]["done"] is True

    advance(client, encounter)  # already resolved in Action 1: not twice
    assert states(encounter)["Lutin"]["essence"] == 12
    assert encounter.clock["events"][0]["done"] is False

    advance(client, encounter)  # Action 2 played without the Action page: the end of the Action resolves it
    assert "Rang 0\u202f: La grange brûle — le Lutin perd 3\u00a0points d'Essence (12 → 9)." in last(encounter).story
    assert states(encounter)["Lutin"]["essence"] == 9
    assert encounter.clock["action"] == 3


# --- the exchange page ------------------------------------------------------------------------------------


def test_the_seeds_wichtln_strikes_a_lutin_with_the_values_derived_from_its_sheet(client, encounter):
    wichtln = creature(client, encounter, "Wichtln")
    lutin = creature(client, encounter, "Lutin")
    page_html = resolve(
        client,
        open_calculator(client, encounter, "feerie", attacker=wichtln, defender=lutin),
        {"plus.1": 10, "moins.1": 10},
    )
    numbers = final(page_html)
    # « Son Initiative est de 15 […], son Attaque au contact est de 23 […], ses Dommages au contact de 12 »
    assert {k: numbers[k] for k in ("initiative", "attack", "damage", "defense", "soak", "margin", "essence_lost")} == {
        "initiative": "15",
        "attack": "23",
        "damage": "12",
        "defense": "16",
        "soak": "8",
        "margin": "7",
        "essence_lost": "7",  # ⌊7/2⌋ + 12 − 8
    }
    applied(client, encounter, page_html)
    s = states(encounter)
    assert s["Lutin"]["essence"] == 15 - 7
    assert (s["Wichtln"]["last_loss"], s["Wichtln"]["last_victim"]) == (7, "Lutin")
    assert "Lutin — Essence (Glamour)\u202f: 15 → 8" in last(encounter).lines

    # the same Wichtln at range (« à distance » entry, « Combat à distance » ticked), then defending
    archer = creature(client, encounter, "Wichtln", mode="r", as_name="Wichtln tonnant")
    assert states(encounter)["Wichtln tonnant"]["ranged"] is True  # the « à distance » entry ticks it
    assert states(encounter)["Wichtln"]["ranged"] is False
    url = open_calculator(client, encounter, "feerie", attacker=archer, defender=lutin)
    assert "mode=ranged" in url
    numbers = final(resolve(client, url, {"plus.1": 10, "moins.1": 10}))
    assert (numbers["attack"], numbers["damage"]) == (
        "15",
        "7",
    )  # « Attaque à distance de 15 […] Dommages à distance de 7 »
    numbers = final(
        resolve(
            client,
            open_calculator(client, encounter, "feerie", attacker=lutin, defender=wichtln),
            {"plus.1": 10, "moins.1": 10},
        )
    )
    assert (numbers["defense"], numbers["soak"]) == ("25", "15")  # « sa Défense de 25 […] son Encaissement de 15 »


def test_this_actions_malus_and_a_trip_follow_the_combatant_onto_both_pages(client, encounter):
    redcap = creature(client, encounter, "Redcap")
    lutin = creature(client, encounter, "Lutin")
    edit(client, encounter, redcap, carried_malus=-4)  # an extra activity of the previous Action, typed by hand
    url = open_calculator(client, encounter, "feerie", attacker=redcap, defender=lutin)
    for field in ("attacker.modifiers.initiative=-4", "attacker.modifiers.attack=-4", "attacker.modifiers.defense=-4"):
        assert field in url
    assert "defender.modifiers.defense=-4" in open_calculator(
        client, encounter, "feerie", attacker=lutin, defender=redcap
    )
    edit(client, encounter, redcap, carried_malus=0)

    # « Faire tomber » (−6): 23 − 6 = 17 against 16: the Lutin falls, no Essence lost
    page = played(
        client,
        encounter,
        "feerie",
        {"attacker": redcap, "defender": lutin},
        {"plus.1": 10, "moins.1": 10},
        blows__0__kind="faire_tomber",
        blows__0__attack_malus=-6,
        blows__0__effect_value=4,
    )
    assert "Coup spécial réussi" in page
    s = states(encounter)["Lutin"]
    assert s["essence"] == 15
    # the bestiary's Lutin is « le Lutin » (issue 15)
    trip = "Le Lutin tombe à terre\u202f: −4 à toutes ses activités tant qu'il ne s'est pas relevé."
    assert s["conditions"] == [
        {
            "label": trip,
            "by": "Redcap",
            "malus": -4,
            "kind": "faire_tomber",
            "defense": None,
            "ranks": None,
            "rank": None,
        }
    ]
    assert f"Noté sur la fiche du Lutin\u202f: «\u202f{trip}\u202f»" in last(encounter).story
    page_html = client.get(detail_url(encounter)).content.decode()
    assert chips_of(page_html, lutin) == ["À terre −4 jusqu'à ce qu'il se relève (une activité)"]
    assert "attacker.modifiers.attack=-4" in open_calculator(
        client, encounter, "feerie", attacker=lutin, defender=redcap
    )
    assert "fighters.1.attack=12" in open_calculator(client, encounter, "feerie-action", fighters=[redcap, lutin])

    # he stands up: the chip's « Se relève », an activity, logged and undoable
    assert lift_condition(client, encounter, lutin, "conditions.0").status_code == 303
    assert states(encounter)["Lutin"]["conditions"] == []
    entry = last(encounter)
    assert entry.title == "Lutin\u202f: fin de l'effet «\u202fÀ terre −4\u202f»"
    assert entry.story == ["Le Lutin se relève\u202f: c'est une activité à part entière, sans jet de dés."]
    assert "attacker.modifiers.attack=0" in open_calculator(
        client, encounter, "feerie", attacker=lutin, defender=redcap
    )
    undo(client, encounter)
    assert states(encounter)["Lutin"]["conditions"][0]["kind"] == "faire_tomber"


def test_an_acharnement_adds_a_quarter_of_the_last_loss_on_the_same_victim(client, encounter):
    redcap = creature(client, encounter, "Redcap")
    lutin = creature(client, encounter, "Lutin")
    farfadet = creature(client, encounter, "Farfadet")
    played(client, encounter, "feerie", {"attacker": redcap, "defender": lutin}, {"plus.1": 10, "moins.1": 10})
    s = states(encounter)
    assert s["Lutin"]["essence"] == 15 - 8  # 23 against 16: ⌊7/2⌋ + 13 − 8
    assert (s["Redcap"]["last_loss"], s["Redcap"]["last_victim"]) == (8, "Lutin")
    assert "previous_loss=0" in open_calculator(client, encounter, "feerie", attacker=redcap, defender=farfadet)
    url = open_calculator(client, encounter, "feerie", attacker=redcap, defender=lutin)
    assert "previous_loss=8" in url
    # Dommages 13 + ⌊8/4⌋ = 15: ⌊7/2⌋ + 15 − 8 = 10 on the 7 left
    page_html = resolve(
        client, url, {"plus.1": 10, "moins.1": 10}, blows__0__kind="acharnement", blows__0__defense_malus=-8
    )
    assert final(page_html)["damage"] == "15"
    applied(client, encounter, page_html)
    assert states(encounter)["Lutin"]["essence"] == 0
    assert states(encounter)["Redcap"]["last_loss"] == 7  # what it really took: the Lutin had 7 left
    assert "Le Lutin n'a plus d'Essence\u202f: hors de combat, sa Défense tombe à zéro." in last(encounter).story
    # without Essence he is helpless: Défense zero, the whole attack total is the margin
    url = open_calculator(client, encounter, "feerie", attacker=farfadet, defender=lutin)
    assert "situation.defender_helpless=on" in url
    assert final(resolve(client, url, {"plus.1": 10, "moins.1": 10}))["defense"] == "0"


def test_an_incident_is_noted_for_the_game_master_and_costs_no_essence_by_itself(client, encounter):
    lutin = creature(client, encounter, "Lutin")
    wichtln = creature(client, encounter, "Wichtln")
    # 16 − 19 = −3 against 25: margin −28; if he hurts himself: ⌊28/2⌋ + 6 − 8 = 12
    page = played(client, encounter, "feerie", {"attacker": lutin, "defender": wichtln}, {"plus.1": 1, "moins.1": 20})
    assert "Incident" in page
    entry = last(encounter)
    assert any(
        line.startswith("Incident\u202f: si le Lutin se blesse lui-même, il perd 12\u00a0points d'Essence")
        for line in entry.lines
    )
    s = states(encounter)
    assert (s["Lutin"]["essence"], s["Wichtln"]["essence"]) == (15, 20)


# --- the encounter page, the history ----------------------------------------------------------------------


def test_undo_and_redo_walk_a_whole_action_and_its_end_back_and_forth(client, encounter):
    rubezahl = creature(client, encounter, "Rübezahl")
    serpent = creature(client, encounter, "Serpent à Sornettes")
    before = states(encounter)
    played(
        client,
        encounter,
        "feerie-action",
        {"fighters": [rubezahl, serpent]},
        dice(init_0=(10, 10), init_1=(10, 10), act_0=(20, 1)),
        activities__0__kind="attack",
        activities__0__targets="1",
        activities__1__kind="attack",
        activities__1__targets="0",
        activities__2__actor=0,
        activities__2__kind="attack",
        activities__2__targets="1",
    )
    # 21 + 19 = 40 against 17: ⌊23/2⌋ + 27 − 10 = 28 on 20 Essence: clamped to 0; the extra one never comes
    assert states(encounter)["Serpent à Sornettes"]["essence"] == 0
    assert states(encounter)["Rübezahl"]["next_malus"] == -4
    advance(client, encounter)
    after = states(encounter)
    assert after["Rübezahl"]["carried_malus"] == -4
    for _ in range(2):
        assert undo(client, encounter).status_code == 303
    assert states(encounter) == before
    assert encounter.clock["action"] == 1
    for _ in range(2):
        assert redo(client, encounter).status_code == 303
    assert states(encounter) == after
    assert encounter.clock["action"] == 2


def test_the_encounter_page_tells_essence_initiatives_and_malus_in_french(client, encounter):
    moi = typed(encounter, "Moi", vigilance=15, habilete=18, puissance=16)
    redcap = creature(client, encounter, "Redcap")
    body = client.get(detail_url(encounter)).content.decode()
    assert "La séquence d'une Action" in visible(body)
    assert "Un échange : Attaque contre Défense" in visible(body)
    ticked = re.findall(r'name="role\.fighters"\s+value="(\d+)"\s+checked', body)
    assert ticked == [str(moi.pk), str(redcap.pk)]  # every fighter takes part in the Action
    played(
        client,
        encounter,
        "feerie-action",
        {"fighters": [moi, redcap]},
        fighters__0__initiative=17,
        fighters__1__initiative=10,
        activities__0__kind="attack",
        activities__0__targets="1",
        activities__2__actor=0,
        activities__2__kind="attack",
        activities__2__targets="1",
    )
    page = visible(client.get(detail_url(encounter)).content.decode())
    assert "Action 1" in page
    assert "Initiatives de l'Action 1 : Moi 17, le Redcap 10." in page
    assert "Initiative 17" in page
    assert "−4 à l'Action suivante" in page
    assert "Fin de l'Action 1" in page
    advance(client, encounter)
    page = visible(client.get(detail_url(encounter)).content.decode())
    assert "Action 2" in page
    assert "malus −4 cette Action" in page


def test_a_sheet_saved_unchanged_changes_nothing_and_a_bad_one_is_refused_in_french(client, encounter):
    pixie = creature(client, encounter, "Pixie")
    before = states(encounter)
    assert edit(client, encounter, pixie).status_code == 303
    assert states(encounter) == before
    assert last(encounter).lines == []
    response = edit(client, encounter, pixie, tactic__attack=9, tactic__defense=-9)
    assert response.status_code == 422
    assert (
        "Attaque : une modification de tactique ne peut dépasser le total des Affinités et maîtrises appliquées (8), reçu +9."
        in visible(response.content.decode())
    )
    response = edit(client, encounter, pixie, essence=11)
    assert "Essence : ne peut dépasser l'Essence de départ (10)." in visible(response.content.decode())
    response = edit(client, encounter, pixie, declarations__0__label="donne des coups de bâton")
    assert "Une attaque vise au moins une cible (ou cocher « Autre activité »)." in visible(response.content.decode())
    assert states(encounter) == before
