"""The players' view of an encounter (issue 16): what the game master shows of it, drawn once per
change and pushed to every open view (encounters/live.py).

What a player sees of each combatant is its ``visibility``: its gauges exactly, its state in words
(« blessée », « hors de combat »), its name only, or nothing at all. A log entry that changes a
hidden combatant, or names one in its title, is not shown, nor a paragraph of a story that names
one; an undone entry neither (it did not happen); the log shows the story, never the technical
lines, only the gauges of combatants shown exactly, and a gauge step by hand on anyone else as
« état modifié » (not « Santé −1 »).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import F
from django.template.loader import render_to_string
from django.urls import reverse

from calculator.grammar import noun_of
from encounters import conditions, live, services
from encounters.models import Combatant, Encounter, LogEntry, PlayerLink
from rulesets.core import encounter as core
from rulesets.core.french import Noun, capitalize, typography
from rulesets.core.registry import load_all

LOG_SHOWN = 30  # the newest entries a player sees
V = Combatant.Visibility


def auto_visibility(combatant: Combatant, rules: core.EncounterRules) -> Combatant.Visibility:
    """What ``auto`` means for this combatant: a player character exactly, anyone else in words."""
    try:
        player = rules.kind(combatant.kind).player
    except StopIteration:
        player = False
    return V.EXACT if player else V.TIER


def visibility_of(combatant: Combatant, rules: core.EncounterRules) -> str:
    """The combatant's visibility, ``auto`` resolved."""
    if combatant.visibility != V.AUTO:
        return str(combatant.visibility)
    return str(auto_visibility(combatant, rules))


def _agreed(noun: Noun, masculine: str, feminine: str) -> str:
    word = feminine if noun.feminine else masculine
    return word + "s" if noun.plural and not word.endswith("s") else word


def state_words(rules: core.EncounterRules, fighter: core.Fighter) -> str:
    """A combatant's state in words, agreed with its name (« indemne », « touchée », « blessés »,
    « grièvement blessé », « hors de combat »): from its first health gauge with a maximum (its
    share left), else from the damage it has taken."""
    noun = noun_of(fighter.name, fighter.state)
    if rules.is_out(fighter):
        return "hors de combat"
    bars = rules.bars(fighter)
    health = next((b for b in bars if b.tone == "health" and b.maximum), None)
    if health is not None:
        share = health.value / health.maximum
        if share >= 1:
            return _agreed(noun, "indemne", "indemne")
        if share >= 0.5:
            return _agreed(noun, "touché", "touchée")
        if share > 0.25:
            return _agreed(noun, "blessé", "blessée")
        return "grièvement " + _agreed(noun, "blessé", "blessée")
    taken = [b for b in bars if b.tone == "danger" and not b.maximum]
    if taken and any(b.value for b in taken):
        return _agreed(noun, "blessé", "blessée")
    return _agreed(noun, "indemne", "indemne")


@dataclass
class PlayerCard:
    name: str
    kind_label: str
    level: str
    bars: list[core.Bar] = field(default_factory=list)
    words: str = ""
    out: bool = False
    # the lasting conditions as the players may see them: (label, what remains) exactly, the
    # label without its numbers in words, nothing for a combatant shown by name only
    chips: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class PlayerEntry:
    seq: int
    clock_label: str
    title: str
    story: list[str]
    gauges: list[dict[str, Any]]


def player_context(encounter: Encounter) -> dict[str, Any]:
    rules = services.rules_for(encounter)
    combatants = list(encounter.combatants.all())
    level = {c.pk: visibility_of(c, rules) for c in combatants}
    hidden = {pk for pk, v in level.items() if v == V.HIDDEN}
    present = {c.pk: services.fighter(c, rules) for c in combatants if c.present}
    clock = services.clock_of(encounter)
    cards = []
    for c in combatants:
        if not c.present or level[c.pk] == V.HIDDEN:
            continue
        f = present[c.pk]
        card = PlayerCard(name=c.name, kind_label=typography(rules.kind(c.kind).label), level=level[c.pk])
        if card.level == V.EXACT:
            card.bars = list(rules.bars(f))
            card.out = rules.is_out(f)
            card.chips = [(chip.label, chip.remaining) for chip in conditions.chips(rules, f, clock)]
        elif card.level == V.TIER:
            card.words = state_words(rules, f)
            card.out = rules.is_out(f)
            card.chips = [(chip.said_publicly, "") for chip in conditions.chips(rules, f, clock)]
        cards.append(card)
    secret = [c.name.casefold() for c in combatants if c.pk in hidden and c.name.strip()]

    def names_hidden(text: str) -> bool:
        folded = text.casefold()
        return any(name in folded for name in secret)

    for card in cards:  # « Riposte due contre le Guetteur »: not a word of a hidden combatant
        card.chips = [
            (typography(label), typography(left)) for label, left in card.chips if not names_hidden(f"{label} {left}")
        ]

    entries = []
    for entry in encounter.log.filter(undone=False).order_by("-seq"):
        touched = {change.get("combatant") for change in entry.changes}
        if touched & hidden or names_hidden(entry.title):
            continue
        exact = {c.pk for c in combatants if level[c.pk] == V.EXACT and c.pk in touched}
        gauges = [g for g in services.entry_gauges(rules, entry) if g.get("combatant") in exact]
        # a paragraph that names a hidden combatant (« Guetteur perd 1 attaque… » at the end of a
        # turn that did not change him) is left out; the rest of the entry is told
        story = [p for p in entry.story if not names_hidden(p)]
        title = entry.title
        if entry.action == LogEntry.Action.ADJUST and touched - exact:
            # « Brigand : Santé −1 » would count an NPC's health down for the players
            title = typography(f"{capitalize(str(entry.changes[0].get('name', '')))}\u202f: état modifié")
        elif entry.action == LogEntry.Action.CONDITION and touched - exact:
            # « Brigand : effet ajouté à la main, « Étourdi −4 » »: the numbers stay behind the screen
            title = typography(f"{capitalize(str(entry.changes[0].get('name', '')))}\u202f: effets en cours modifiés")
        entries.append(PlayerEntry(entry.seq, entry.clock_label, title, story, gauges))
        if len(entries) == LOG_SHOWN:
            break
    order = services.turn_order(encounter, tuple(present.values()))
    names = {str(c.pk): c.name for c in combatants if c.pk not in hidden}
    exactly = {str(pk) for pk, v in level.items() if v == V.EXACT}
    turns = []
    if order is not None:
        now, upcoming = order.now, order.next
        turns = [
            {
                "name": names[t.key],
                # what ranks a turn (« initiative 9 (Menace) ») tells a value of the sheet: only for
                # a combatant shown exactly
                "detail": t.detail if t.key in exactly else "",
                "done": t.done,
                "now": t is now,
                "next": t is upcoming,
            }
            for t in order.turns
            if t.key in names  # a hidden combatant's turn is not told
        ]
    return {
        "turns": turns,
        "turns_heading": typography(order.heading) if order is not None else "",
        "encounter_name": encounter.name,
        "system_name": typography(load_all()[rules.system].name),
        "clock_label": typography(rules.clock_label(clock)),
        "cards": cards,
        "entries": entries,
        "version": encounter.version,
    }


def render_state(encounter: Encounter) -> str:
    return render_to_string("encounters/_player_state.html", player_context(encounter))


def render_gone() -> str:
    return render_to_string("encounters/_player_gone.html")


def state_message(encounter: Encounter) -> live.Message:
    return live.Message("state", render_state(encounter), encounter.version, time.time())


def gone_message() -> live.Message:
    return live.Message("revoked", render_gone(), 0, time.time())


# --- publishing ------------------------------------------------------------------------------------


def changed(encounter_id: int) -> None:
    """After a change is saved: the players' state, drawn once and published, if the encounter has a
    player link (else nothing is drawn)."""
    encounter = Encounter.objects.filter(pk=encounter_id, player_link__isnull=False).first()
    if encounter is not None:
        live.broker().publish(live.channel(encounter.pk), state_message(encounter))


def on_commit(encounter_id: int) -> None:
    transaction.on_commit(lambda: changed(encounter_id))


# --- the game master's side ------------------------------------------------------------------------


def link_create(encounter: Encounter) -> PlayerLink:
    """The players' link, made once (an existing one is kept: its token is already shared)."""
    link, _created = PlayerLink.objects.get_or_create(
        encounter=encounter, defaults={"token": secrets.token_urlsafe(24)}
    )
    return link


def link_revoke(encounter: Encounter) -> None:
    """The link withdrawn: its open views are told so and closed; a new link gets a new token."""
    deleted, _rows = PlayerLink.objects.filter(encounter=encounter).delete()
    if deleted:
        message = gone_message()
        transaction.on_commit(lambda: live.broker().publish(live.channel(encounter.pk), message))


ERROR_BAD_VISIBILITY = "Vue des joueurs\u202f: choisissez une des options proposées."


def visibility_set(encounter: Encounter, choices: Iterable[tuple[Combatant, str]]) -> None:
    """What the players see of each combatant; a new version, so that open views redraw."""
    with transaction.atomic():
        for combatant, value in choices:
            if combatant.visibility != value:
                combatant.visibility = value
                combatant.save(update_fields=["visibility"])
        Encounter.objects.filter(pk=encounter.pk).update(version=F("version") + 1)
        encounter.refresh_from_db(fields=["version"])
        on_commit(encounter.pk)


def link_url(link: PlayerLink) -> str:
    return reverse("player", args=[link.token])
