"""A calculator page opened from an encounter: which encounter, at which version, and which combatant
holds which role. The page carries these as hidden fields (``_enc``, ``_enc_v``, ``_role.pc``…) so
that its result can be applied to the encounter."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.http import HttpRequest, QueryDict
from django.urls import reverse

from encounters.models import Encounter
from rulesets.core import encounter as core
from rulesets.core.schema import ID_DIGITS, ascii_number

ENCOUNTER, VERSION, ROLE = "_enc", "_enc_v", "_role."


@dataclass(frozen=True)
class CalculatorContext:
    encounter: Encounter
    page: core.Page
    version: str
    roles: dict[str, list[str]]
    cast: list[tuple[str, str]]  # (role label, combatant names) for the banner

    @property
    def params(self) -> list[tuple[str, str]]:
        out = [(ENCOUNTER, str(self.encounter.pk)), (VERSION, self.version)]
        out += [(f"{ROLE}{role}", ",".join(keys)) for role, keys in self.roles.items()]
        return out

    def carry(self, url: str) -> str:
        """``url`` with the encounter's hidden fields, so that following it stays in the encounter."""
        if not url:
            return url
        return f"{url}{'&' if '?' in url else '?'}{urlencode(self.params)}"

    @property
    def detail_url(self) -> str:
        return reverse("encounters:detail", args=[self.encounter.pk])

    @property
    def apply_url(self) -> str:
        return reverse("encounters:apply", args=[self.encounter.pk])


def roles_from(data: QueryDict | dict[str, Any]) -> dict[str, list[str]]:
    return {
        key[len(ROLE) :]: [k for k in str(value).split(",") if k]
        for key, value in data.items()
        if key.startswith(ROLE) and str(value).strip()
    }


def calculator_context(request: HttpRequest, data: QueryDict | None, slug: str) -> CalculatorContext | None:
    """The encounter a calculator request belongs to, if it names one its user owns; else None
    (the calculator stays an anonymous calculator: nothing about another's encounter shows)."""
    if data is None or ENCOUNTER not in data or not request.user.is_authenticated:
        return None
    pk = ascii_number(str(data.get(ENCOUNTER, "")), ID_DIGITS)  # a made-up id: no encounter, never a 500
    if pk is None:
        return None
    encounter = Encounter.objects.filter(pk=pk, owner=request.user).first()
    if encounter is None:
        return None
    rules = core.all_rules().get(encounter.system)
    page = next((p for p in rules.pages if p.slug == slug), None) if rules else None
    if page is None:
        return None
    roles = roles_from(data)
    names = dict(encounter.combatants.filter(present=True).values_list("id", "name"))
    cast = []
    for role in page.roles:
        ids = (ascii_number(k, ID_DIGITS) for k in roles.get(role.key, []))  # '²' and 5,000 digits are no id
        who = [names.get(cid, "?") for cid in ids if cid is not None]
        if who:
            cast.append((role.label, ", ".join(who)))
    return CalculatorContext(encounter, page, str(data.get(VERSION, "")), roles, cast)
