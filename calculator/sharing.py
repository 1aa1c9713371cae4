"""Sharing a result: freeze it, compare it with today's engine, export it as wikitext/Markdown (with
the wikitext's options: heading level, image line)."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.conf import settings
from django.http import QueryDict

from calculator import plugins, services, short_links
from calculator.models import SharedResult, request_digest, stored_json
from rulesets.core import request as core_request
from rulesets.core.french import typography
from rulesets.core.registry import Ruleset, load_all
from rulesets.core.schema import ScenarioError

ERROR_NOTHING_TO_SHARE = "Aucun résultat à partager\u202f: résolvez d'abord l'échange."
ERROR_TOO_LARGE = (
    "Ce résultat est trop volumineux pour être partagé\u202f: {size}\u00a0octets, au plus {limit}. "
    "Son lien permanent, lui, le rejoue à l'identique."
)
DEFAULT_SHARE_MAX_BYTES = 256 * 1024


class ShareTooLarge(ScenarioError):
    """A share whose stored JSON would pass ``SHARE_MAX_BYTES`` (issue 17, finding 2): a 413."""


def share_max_bytes() -> int:
    return int(getattr(settings, "SHARE_MAX_BYTES", DEFAULT_SHARE_MAX_BYTES))


def _bytes(n: int) -> str:
    return f"{n:,}".replace(",", "\u00a0")


PHYS_COLOUR = "#C0524E"
MAG_COLOUR = "#6B4E8A"


def share_create(*, ruleset: Ruleset, query: str, creator: Any = None, creator_session: str = "") -> SharedResult:
    """Resolve the permalink ``query`` again (same typed dice, same seed) and freeze the result.

    ``creator``: the GM's account, else ``creator_session``, the anonymous visitor's session
    (:func:`calculator.share_views.session_fingerprint`). The same request shared again by the
    same creator, on the same engine version, gives back the share it already has (issue 17,
    finding 2). The stored link to the calculator fits (``short_links.fit``).

    Raises :class:`ScenarioError` when the query does not describe a valid resolution,
    :class:`ShareTooLarge` when the share would pass ``SHARE_MAX_BYTES``.
    """
    from calculator.views import permalink, result_summary

    if "seed" not in QueryDict(query):
        raise ScenarioError({"__all__": ERROR_NOTHING_TO_SHARE})
    plugin = plugins.get(ruleset.slug)
    resolution = services.resolution_from_query(ruleset=ruleset, query=query)
    result = core_request.result_data(resolution)
    result["tone"] = resolution.result.tone
    request = {
        "scenario": result["scenario"],
        "dice": {d["key"]: d["value"] for d in result["dice"]},
        "seed": result["seed"],
    }
    digest = request_digest(ruleset.slug, ruleset.engine_version, request)
    mine = SharedResult.objects.filter(creator=creator) if creator is not None else None
    if mine is None and creator_session:
        mine = SharedResult.objects.filter(creator__isnull=True, creator_session=creator_session)
    if mine is not None:
        existing = mine.filter(ruleset=ruleset.slug, request_hash=digest).first()
        if existing is not None:
            return existing
    summary = [list(row) for row in result_summary(plugin, resolution)]
    size = len(stored_json(request)) + len(stored_json(result)) + len(stored_json(summary))
    if size > (limit := share_max_bytes()):
        raise ShareTooLarge({"__all__": ERROR_TOO_LARGE.format(size=_bytes(size), limit=_bytes(limit))})
    return SharedResult.objects.create(
        ruleset=ruleset.slug,
        engine_version=ruleset.engine_version,
        request=request,
        result=result,
        summary=summary,
        permalink=short_links.fit(permalink(ruleset, resolution, plugin.hidden)),
        creator=creator,
        creator_session="" if creator is not None else creator_session,
        request_hash=digest,
        size=size,
    )


_COMPARED = ("outcome", "numbers", "narrative")


def share_drift(shared: SharedResult) -> str:
    """Empty when today's engine gives the same result; else why it would differ (French)."""
    ruleset = load_all().get(shared.ruleset)
    if ruleset is None:
        return "Ce système de règles n'est plus disponible\u202f: le résultat est montré tel qu'il était."
    try:
        now = core_request.result_data(core_request.resolve(ruleset, shared.request))
    except ScenarioError:
        return "Les règles actuelles n'acceptent plus cette situation\u202f: le résultat est montré tel qu'il était."
    steps = [(e["label"], e["value"]) for e in now["events"]]
    before = [(e["label"], e["value"]) for e in shared.result.get("events", [])]
    if any(now[k] != shared.result.get(k) for k in _COMPARED) or steps != before:
        version = ""
        if ruleset.engine_version != shared.engine_version:
            version = f" (moteur {shared.engine_version} → {ruleset.engine_version})"
        return f"Résolu aujourd'hui avec les mêmes dés, l'échange donnerait un autre résultat{version}."
    return ""


# --- text exports ------------------------------------------------------------------------------

_WIKI_ESCAPES = {
    "|": "&#124;",
    "[": "&#91;",
    "]": "&#93;",
    "{": "&#123;",
    "}": "&#125;",
    "<": "&lt;",
    ">": "&gt;",
    "~": "&#126;",
}
_WIKI_LINE_START = {"*": "&#42;", "#": "&#35;", ":": "&#58;", ";": "&#59;", "=": "&#61;", "-": "&#45;", " ": "&#32;"}
_BADGE = re.compile(r"\b(PHYS|MAG)\b")


def wiki_escape(text: str) -> str:
    """Plain text safe in MediaWiki markup, table cells included.

    Links, templates, tags, table pipes and signatures are escaped everywhere; runs of
    apostrophes (bold/italic) too, but a single French apostrophe stays readable; a character
    that would start a list, heading or rule is escaped at the start of the text.
    """
    out = "".join(_WIKI_ESCAPES.get(ch, ch) for ch in str(text)).replace("''", "&#39;&#39;")
    if out[:1] in _WIKI_LINE_START:
        out = _WIKI_LINE_START[out[0]] + out[1:]
    return out


def wiki_badges(text: str) -> str:
    """Escape, then colour the PHYS and MAG tokens as the page's badges do."""
    colours = {"PHYS": PHYS_COLOUR, "MAG": MAG_COLOUR}
    return _BADGE.sub(
        lambda m: (
            f'<span style="color:#fff;background:{colours[m.group(1)]};padding:0 .3em;border-radius:.2em">{m.group(1)}</span>'
        ),
        wiki_escape(text),
    )


WIKI_HEADING_DEFAULT = 3
WIKI_HEADING_LEVELS = (2, 3, 4, 5, 6)
WIKI_NO_HEADING = 0
WIKI_IMAGE_FILE = "fichier"
WIKI_IMAGE_EXTERNAL = "externe"


def wiki_image_name(shared: SharedResult) -> str:
    """The file name the wiki editor uploads the share's PNG under, which the wikitext's
    ``[[Fichier:…]]`` line names."""
    return f"Estoc-{shared.id}.png"


def _wiki_heading(title: str, level: int) -> list[str]:
    """A frame's heading: ``=== title ===`` at ``level``, or for none (0) a bold line of its own
    paragraph (the blank line keeps MediaWiki from joining it to the text below)."""
    if level == WIKI_NO_HEADING:
        return [f"'''{title}'''", ""]
    marks = "=" * level
    return [f"{marks} {title} {marks}"]


def wikitext(
    shared: SharedResult,
    url: str,
    *,
    heading: int = WIKI_HEADING_DEFAULT,
    image: str = "",
    image_url: str = "",
    caption: str = "",
) -> str:
    """MediaWiki markup of the four frames: prose for the scene and story, wikitables after.

    Issue 19, item 3: the frames' headings are at ``heading`` (2 to 6, level 3 by default: a
    level-2 heading adds sections to the host page's table of contents), or bold lines for
    ``heading=0``. ``image``: ``"fichier"`` puts first a ``[[Fichier:Estoc-<id>.png]]`` line (the
    wiki cannot show another site's image with it: the editor uploads the PNG under that name),
    ``"externe"`` the PNG's address ``image_url`` alone on its line (shown as an image by wikis
    with ``$wgAllowExternalImages``). ``caption``: the image's text (escaped here).
    """
    if heading != WIKI_NO_HEADING and heading not in WIKI_HEADING_LEVELS:
        raise ValueError(f"heading level {heading!r}")
    r = shared.result
    lines: list[str] = []
    if image == WIKI_IMAGE_FILE:
        text = wiki_escape(caption or f"Estoc — résultat {shared.id}").replace("=", "&#61;")  # no link=…
        lines += [f"[[Fichier:{wiki_image_name(shared)}|720px|{text}]]", ""]
    elif image == WIKI_IMAGE_EXTERNAL:
        lines += [image_url, ""]
    elif image:
        raise ValueError(f"image {image!r}")
    lines += [
        *_wiki_heading("La scène", heading),
        wiki_escape(shared.scene),
        "",
        *_wiki_heading("Le récit", heading),
        f"'''{wiki_escape(r.get('outcome_label', ''))}'''",
        "",
    ]
    for paragraph in shared.story:
        lines += [wiki_escape(paragraph), ""]
    lines += [*_wiki_heading("Résolution technique", heading), '{| class="wikitable"', "! Étape !! Valeur !! Règle"]
    dice = " ".join(f"{d['value']}" + ("" if d.get("typed") else "*") for d in r.get("dice", []))
    if dice:
        lines += ["|-", f"| Dés (*\u202f: lancés par le serveur) || {wiki_escape(dice)} || graine {r.get('seed')}"]
    for group, events in shared.event_groups():
        if group:
            lines += ["|-", f'! colspan="3" | {wiki_escape(group)}']
        for e in events:
            rule = wiki_escape(typography(e["rule"]))
            lines += ["|-", f"| {wiki_badges(e['label'])} || {wiki_badges(e['value'])} || {rule}"]
    lines += ["|}", "", *_wiki_heading("Résultat final", heading), '{| class="wikitable"']
    for _key, label, value in shared.summary:
        lines += ["|-", f"! {wiki_escape(label)}", f"| {wiki_badges(value)}"]
    lines += ["|}", "", f"<small>Estoc — [{url} résultat {shared.id}]</small>"]
    return "\n".join(lines) + "\n"


ERROR_WIKI_HEADING = (
    "Paramètre «\u202ftitres\u202f»\u202f: «\u202f{value}\u202f» n'est pas un niveau de titre\u202f; choisissez de 2 à 6, "
    "ou «\u202faucun\u202f» (ou 0) pour des lignes en gras."
)
ERROR_WIKI_IMAGE = (
    "Paramètre «\u202fimage\u202f»\u202f: «\u202f{value}\u202f» n'est pas un choix\u202f; choisissez «\u202ffichier\u202f» (la ligne "
    "[[Fichier:…]]), «\u202fexterne\u202f» (l'adresse de l'image) ou rien."
)
WIKI_HEADING_CHOICES = (
    *((str(n), f"Niveau {n}" + (" (entre dans la table des matières)" if n == 2 else "")) for n in WIKI_HEADING_LEVELS),
    ("aucun", "Aucun\u202f: lignes en gras"),
)
WIKI_IMAGE_CHOICES = (
    ("", "Sans image"),
    (WIKI_IMAGE_FILE, "Ligne [[Fichier:…]] (image téléversée sur le wiki)"),
    (WIKI_IMAGE_EXTERNAL, "Adresse de l'image (wikis qui autorisent les images externes)"),
)


def _shown(value: str, width: int = 40) -> str:
    """A refused value, short and printable, to quote in a message."""
    value = "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in value)
    return value if len(value) <= width else value[:width] + "…"


class WikiOptionsForm(forms.Form):
    """The wikitext's options, read from the query (``?titres=3&image=fichier``) of the share page
    and of ``wiki.txt`` (issue 19, item 3). ``titres``: 2 to 6, or ``aucun``/``0`` for bold lines;
    absent or empty: level 3. ``image``: ``fichier``, ``externe``, or absent/empty for none. Any
    other value is refused with a French message naming the parameter (a 400), never replaced."""

    # plain fields: every refusal, a NUL included, is this form's message naming the parameter
    titres = forms.Field(required=False)
    image = forms.Field(required=False)

    def clean_titres(self) -> int:
        value = self.cleaned_data["titres"] or ""
        if value == "":
            return WIKI_HEADING_DEFAULT
        if value in ("0", "aucun"):
            return WIKI_NO_HEADING
        if value in {str(n) for n in WIKI_HEADING_LEVELS}:
            return int(value)
        raise forms.ValidationError(ERROR_WIKI_HEADING.format(value=_shown(value)))

    def clean_image(self) -> str:
        value = self.cleaned_data["image"] or ""
        if value in ("", WIKI_IMAGE_FILE, WIKI_IMAGE_EXTERNAL):
            return str(value)
        raise forms.ValidationError(ERROR_WIKI_IMAGE.format(value=_shown(value)))

    def messages(self) -> list[str]:
        return [str(m) for errors in self.errors.values() for m in errors]


_MD_SPECIAL = re.compile(r"([\\`*_\[\]|<>])")
_MD_LINE_START = re.compile(r"^([#>+\-=]|\d+\.)")


def md_escape(text: str) -> str:
    """Escape what Markdown would read as emphasis, code, links, HTML, table pipes or a block."""
    out = _MD_SPECIAL.sub(r"\\\1", str(text))
    return _MD_LINE_START.sub(lambda m: m.group(1)[:-1] + "\\." if m.group(1)[-1] == "." else "\\" + m.group(1), out)


def markdown(shared: SharedResult, url: str) -> str:
    """Markdown for forums (GitHub-flavoured tables)."""
    r = shared.result
    lines = [
        "### La scène",
        "",
        md_escape(shared.scene),
        "",
        "### Le récit",
        "",
        f"**{md_escape(r.get('outcome_label', ''))}**",
        "",
    ]
    for paragraph in shared.story:
        lines += [md_escape(paragraph), ""]
    lines += ["### Résolution technique", "", "| Étape | Valeur | Règle |", "| --- | --- | --- |"]
    for group, events in shared.event_groups():
        if group:
            lines.append(f"| **{md_escape(group)}** | | |")
        for e in events:
            lines.append(f"| {md_escape(e['label'])} | {md_escape(e['value'])} | {md_escape(typography(e['rule']))} |")
    lines += ["", "### Résultat final", "", "| | |", "| --- | --- |"]
    for _key, label, value in shared.summary:
        lines.append(f"| {md_escape(label)} | {md_escape(value)} |")
    lines += ["", f"[Estoc — résultat {shared.id}]({url})"]
    return "\n".join(lines) + "\n"


def embed_snippet(capture_url: str, title: str) -> str:
    return (
        f'<iframe src="{capture_url}" width="760" height="900" loading="lazy" '
        f'title="{title}" style="border:0;max-width:100%"></iframe>'
    )


def as_rows(shared: SharedResult) -> dict[str, Any]:
    """What the frames template needs."""
    r = shared.result
    return {
        "scene": shared.scene,
        "story": shared.story,
        "outcome_label": r.get("outcome_label", ""),
        "tone": r.get("tone", "neutral"),
        "dice": r.get("dice", []),
        "seed": r.get("seed"),
        "groups": shared.event_groups(),
        "summary": shared.summary,
    }
