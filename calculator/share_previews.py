"""Link previews of a shared result (issue 19, item 2): what the OpenGraph and Twitter-card tags of
``/r/<id>`` say, so that a link pasted in Discord, Matrix, Mastodon or a forum shows the result.

The title names who faces whom and the outcome (« Aldric contre l'Arbalétrier : Réussite partielle »),
each name with its article (issue 15).
No ruleset is special-cased: the names come from the roles each ruleset already declares for its
encounter pages (``rulesets/<slug>/encounter.py``: ``pc`` then ``npcs``, ``attacker`` then
``defenders``…), in their declared order, the acting role first. Two generic rules refine it:

* a role whose name the scene does not mention is left out (a default opponent the scenario carries
  but the action does not use, encore's « Autre PJ », a target of a test with no target);
* a scenario whose ``mode`` starts with a role's key and an underscore (Quadrature's ``pc_attack``)
  is acted by that role: it goes first.

Without names (a ruleset without encounter pages, a scene naming no one) the title is the
ruleset's name and the outcome.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from django.urls import reverse

from calculator.grammar import noun_of
from calculator.models import SharedResult
from rulesets.core.french import Noun, capitalize, count, join, typography

DESCRIPTION_MAX = 200
NAMES_SHOWN = 3
# the server-rendered PNG (calculator/share_image.py) is drawn 720 px wide at 2× density
IMAGE_WIDTH = 1440


def _roles(slug: str) -> tuple[str, ...]:
    from rulesets.core import encounter

    for rules in encounter.all_rules().values():
        for page in rules.pages:
            if page.slug == slug:
                return tuple(role.key for role in page.roles)
    return ()


def _nouns(value: Any) -> list[Noun]:
    """The named combatants of a role's value, each with the grammar its scenario gives its name
    (issue 15: « contre l'Arbalétrier », never « contre Arbalétrier » for a common noun)."""
    items = value if isinstance(value, list) else [value]
    return [
        noun_of(str(item["name"]).strip(), item)
        for item in items
        if isinstance(item, Mapping) and str(item.get("name", "")).strip()
    ]


def sides(shared: SharedResult) -> list[list[Noun]]:
    """The names on each side of the scene, the acting side first (the module's docstring)."""
    scenario = shared.result.get("scenario") or shared.request.get("scenario") or {}
    if not isinstance(scenario, Mapping):
        return []
    scene = shared.scene.lower()  # a role name is told in lower case (« l'attaquant »)
    found: list[tuple[str, list[Noun]]] = []
    for key in _roles(shared.ruleset):
        names = [n for n in _nouns(scenario.get(key)) if n.text.lower() in scene]
        if names:
            found.append((key, names))
    mode = str(scenario.get("mode", ""))
    acting = next((i for i, (key, _names_) in enumerate(found) if mode.startswith(f"{key}_")), 0)
    if acting:
        found.insert(0, found.pop(acting))
    return [names for _key, names in found]


def french_list(names: list[Noun]) -> str:
    """« A », « A et B », « A, B et C », « A, B, C et 2 autres » (at most ``NAMES_SHOWN`` named),
    each name with its article (« l'Orc et les Loups »)."""
    said = [n.subject for n in names]
    if len(said) > NAMES_SHOWN:
        return join([*said[:NAMES_SHOWN], count(len(said) - NAMES_SHOWN, "autre")])
    return join(said)


def title(shared: SharedResult, ruleset_name: str) -> str:
    """« Aldric contre l'Arbalétrier : Réussite partielle »; one side: « Rübezahl et le
    Serpent à Sornettes : Action résolue »; no names: « enCORE — conflits : Réussite »."""
    outcome = str(shared.result.get("outcome_label", "")).strip()
    found = sides(shared)
    if not found:
        who = ruleset_name
    elif len(found) == 1:
        who = capitalize(french_list(found[0]))
    else:
        who = capitalize(f"{french_list(found[0])} contre {french_list(found[1])}")
    return typography(f"{who} : {outcome}" if outcome else who)


_BLANKS = re.compile(r"[ \t\r\n\f\v]+")  # breaking white space only, never a no-break space


def trimmed(text: str, limit: int = DESCRIPTION_MAX) -> str:
    """``text`` on one line; past ``limit`` characters, cut at the last word boundary before it,
    with « … » (a preview shows a sentence, not a word cut in two). The no-break spaces stay (issue
    15: « Touché\u202f! » is never cut there, nor made a plain space)."""
    text = _BLANKS.sub(" ", text).strip()
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:—-\u00a0\u202f«") + "…"


def description(shared: SharedResult) -> str:
    """The story's first line (the scene when there is no story), trimmed."""
    story = [line for line in shared.story if str(line).strip()]
    return trimmed(str(story[0]) if story else shared.scene)


def image_path(shared: SharedResult) -> str:
    """``/r/<id>.png``, the server-rendered image (issue 19, item 1: calculator/share_image_views.py)."""
    return reverse("shared_png", args=[shared.id])


@dataclass(frozen=True, slots=True)
class Preview:
    title: str
    description: str
    url: str
    image: str
    image_width: int = IMAGE_WIDTH
    # the image's height follows the story: known only once drawn, so the tag is left out rather
    # than the page drawing the image (or reading it back from the cache) on every view
    image_height: int | None = None


def preview(request: HttpRequest, shared: SharedResult, ruleset_name: str, url: str) -> Preview:
    """The tags' values, every address absolute, built from ``request`` (behind the proxy, the
    scheme is the one ``TRUSTED_PROXIES`` vouches for)."""
    return Preview(
        title=title(shared, ruleset_name),
        description=description(shared),
        url=url,
        image=request.build_absolute_uri(image_path(shared)),
    )
