"""The enCORE page plug-in: template, settings from the database and bestiary presets."""

from typing import Any

from django.utils.translation import gettext as _

from bestiary.encore import selectors, table_mode
from bestiary.encore.models import Protection
from calculator.plugins import PresetGroup, Table, WebPlugin, register
from calculator.tables import bestiary_presets, keys_by_pk, table_of
from rulesets.core.request import Resolution


def _npc_values(n: Any) -> dict[str, Any]:
    return {
        "name": n.name,
        # the name's grammar (issue 15): the story says « l'Arbalétrier », « la Sorcière »
        **n.grammar_values(),
        "menace": n.menace,
        "sante": n.sante,
        "weapon": n.weapon.damage,
        "protection": n.protection,
        "boss": n.boss,
        # another creature: the attacks left of the previous one do not carry over
        "attacks_left": "",
    }


def presets() -> list[PresetGroup]:
    """The page's bestiary choices. Each sends its row's key (issue 14, « the page sends keys
    too »): a PNJ the key of the ``npc`` table, the API's; a PJ's weapon, armour or cover, which
    the API takes as numbers of the sheet, the slug of its name."""
    npc_rows = selectors.npc_list()
    npcs = bestiary_presets(npc_rows, _npc_values, keys=keys_by_pk(npc_rows))
    weapons = bestiary_presets(
        selectors.weapon_list(),
        lambda w: {"weapon": w.damage, "weapon_area": w.area, "weapon_limit": w.target_limit},
    )
    armours = bestiary_presets(selectors.protection_list(Protection.Kind.ARMOUR), lambda p: {"armour": p.value})
    covers = bestiary_presets(selectors.protection_list(Protection.Kind.COVER), lambda p: {"cover": p.value})
    return [
        PresetGroup(key="npc", prefix="npcs.{row}", label=_("PNJ du bestiaire"), presets=npcs, table="npc"),
        PresetGroup(key="weapon", prefix="pc", label=_("Arme du bestiaire"), presets=weapons),
        PresetGroup(key="armour", prefix="pc", label=_("Armure"), presets=armours),
        PresetGroup(key="cover", prefix="pc", label=_("Couvert"), presets=covers),
        PresetGroup(key="opp_weapon", prefix="opponent", label=_("Arme du bestiaire"), presets=weapons),
        PresetGroup(key="opp_armour", prefix="opponent", label=_("Armure"), presets=armours),
    ]


def _npc_row(npc: Any) -> dict[str, Any]:
    return {
        "name": npc.name,
        "grammar": npc.grammar_data(),
        "menace": npc.menace,
        "sante": npc.sante,
        "weapon": npc.weapon.damage,
        "protection": npc.protection,
        "boss": npc.boss,
    }


def tables() -> list[Table]:
    """The tables a request names by key (issue 14, calculator/tables.py): a PNJ of the bestiary in
    ``npcs``. An inline PNJ is the game master's own sheet, not a custom row of a table: what it
    leaves out takes the schema's declared default. A PJ's weapon, armour and cover are numbers of
    its sheet."""
    return [
        table_of(
            "npc",
            _("PNJ du bestiaire"),
            ("npcs.*",),
            selectors.npc_list(),
            _npc_row,
        )
    ]


def defaults() -> dict[str, Any]:
    return selectors.settings_data()


def summary(resolution: Resolution) -> list[tuple[str, str, str]]:
    """The breach panel's headline: damage dealt, the strike, the new Santé, tier and Stress."""
    n = resolution.result.numbers
    s = resolution.scenario
    rows: list[tuple[str, str, str]] = [("outcome", _("Résultat"), resolution.result.outcome_label)]
    if "damage_dealt" in n:
        rows.append(("damage_dealt", _("Dégâts infligés"), str(n["damage_dealt"])))
    if "npc_sante_after" in n:
        rows.append(
            (
                "npc_sante_after",
                _("Santé {de_name}").format(de_name=s.npcs[0].noun.de),
                str(n["npc_sante_after"]),
            )
        )
    if "targets_hit" in n:
        rows.append(("targets_hit", _("Cibles touchées"), str(n["targets_hit"])))
    if n.get("breach"):
        rows.append(("breach", _("Brèche"), _("ouverte")))
    if "strike_damage" in n:
        rows.append(("strike_damage", _("Dégâts de la frappe"), str(n["strike_damage"])))
    for key, who in (("pc", s.pc.noun), ("ally", s.strike.interposer), ("opponent", s.opponent.noun)):
        if f"{key}_sante_after" in n:
            rows.append(
                (
                    f"{key}_sante_after",
                    _("Santé {de_name}").format(de_name=who.de),
                    _("{sante} — {tier}, Stress {stress}").format(
                        sante=n[f"{key}_sante_after"], tier=n[f"{key}_tier_after"], stress=n[f"{key}_stress_after"]
                    ),
                )
            )
    if "npc_attacks_left" in n:
        rows.append(("npc_attacks_left", _("Attaques restantes du PNJ ce tour"), str(n["npc_attacks_left"])))
    return rows


def variations(resolution: Resolution) -> list[tuple[str, dict[str, Any], bool]]:
    """With the same dice: focus 1 to Menace attacks, or let an ally interpose."""
    n = resolution.result.numbers
    s = resolution.scenario
    if not n.get("breach") or not s.strike.enabled:
        return []
    striker = s.npcs[s.strike.striker - 1]
    out: list[tuple[str, dict[str, Any], bool]] = []
    for attacks in range(1, striker.attacks_available + 1):
        label = _("Concentrer {n} attaques").format(n=attacks) if attacks > 1 else _("Une attaque")
        out.append((label, {"strike.attacks": attacks}, attacks == s.strike.attacks))
    if not striker.boss:
        out.append(
            (
                _("Un allié s'interpose") if not s.strike.interpose else _("Personne ne s'interpose"),
                {"strike.interpose": not s.strike.interpose},
                False,
            )
        )
    return out


PLUGIN = register(
    WebPlugin(
        slug="encore",
        fields_template="calculator/encore_fields.html",
        defaults=defaults,
        presets=presets,
        hidden=("rules.tiers", "rules.healthy_tier"),
        summary=summary,
        variations=variations,
        table_values=table_mode.TABLES,
        settle=table_mode.settle,
        tables=tables,
    )
)
