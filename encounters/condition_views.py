"""The chips of lasting conditions on the encounter page (issue 16): put one by hand, change it,
lift it. Each answers like every change of the page (views._guarded): the partial for htmx, a
redirect for a plain form, the form back filled with its French messages when refused."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.views.decorators.http import require_POST

from encounters import conditions, services
from encounters.forms import condition_form, condition_prefix, condition_values, set_form_errors
from encounters.views import HtmxHttpRequest, _combatant, _guarded, _owned
from rulesets.core.schema import ScenarioError


@login_required
@require_POST
def condition_put(request: HtmxHttpRequest, pk: int, cid: int) -> HttpResponse:
    """« Ajouter l'effet » (no ``path``) or « Enregistrer » on a chip (its ``path``)."""
    encounter = _owned(request, pk)
    combatant = _combatant(encounter, cid)
    rules = services.rules_for(encounter)
    path = request.POST.get("path", "")
    prefix = condition_prefix(cid, path)
    clock = services.clock_of(encounter)
    lasting = rules.conditions.lasting_for(combatant.kind) if rules.conditions is not None else ()
    chip = conditions.chip_found(rules, services.fighter(combatant, rules), clock, path) if path else None
    form = condition_form(lasting, request.POST, prefix=prefix, chip=chip)

    def change() -> None:
        if path and chip is None:
            raise ScenarioError({"path": conditions.ERROR_GONE})
        key, value, note = condition_values(form)
        conditions.condition_put(
            encounter=encounter,
            version=request.POST.get("version"),
            combatant=combatant,
            lasting=key,
            value=value,
            note=note,
            path=path,
        )

    def invalid(errors: dict[str, str]) -> dict[str, Any]:
        if chip is None and path:  # the chip has gone: say so above the card's chips
            return {"message": f"{combatant.name}\u202f: " + " ".join(errors.values())}
        set_form_errors(form, errors)
        return {"condition": (cid, path, form)}

    return _guarded(
        request,
        encounter,
        change,
        anchor=f"#c{cid}",
        invalid=invalid,
        stale={"condition": (cid, path, form)} if chip is not None or not path else {},
    )


@login_required
@require_POST
def condition_lift(request: HtmxHttpRequest, pk: int, cid: int) -> HttpResponse:
    """A chip's « Retirer » (or its own words: « Se relève »)."""
    encounter = _owned(request, pk)
    combatant = _combatant(encounter, cid)

    def invalid(errors: dict[str, str]) -> dict[str, Any]:
        return {"message": f"{combatant.name}\u202f: " + " ".join(errors.values())}

    return _guarded(
        request,
        encounter,
        lambda: conditions.condition_lift(
            encounter=encounter,
            version=request.POST.get("version"),
            combatant=combatant,
            path=request.POST.get("path", ""),
        ),
        anchor=f"#c{cid}",
        invalid=invalid,
    )
