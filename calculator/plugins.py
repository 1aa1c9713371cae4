"""Page plug-ins: what a rule system adds to the generic calculator page.

A plug-in (registered by ``bestiary/<slug>/web.py``) names the template of the form's fields, the defaults read
from the database (table settings) and the bestiary presets that fill groups of fields.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Preset:
    key: str
    label: str
    values: dict[str, Any]


@dataclass(frozen=True)
class PresetGroup:
    """A select that fills the fields under ``prefix`` (``{row}`` for a repeated group)."""

    key: str
    prefix: str
    label: str
    presets: list[Preset]

    def find(self, key: str) -> Preset | None:
        return next((p for p in self.presets if p.key == key), None)


@dataclass(frozen=True)
class WebPlugin:
    slug: str
    fields_template: str
    defaults: Callable[[], dict[str, Any]] = dict
    presets: Callable[[], list[PresetGroup]] = list
    hidden: tuple[str, ...] = field(default=())
    # headline numbers of a resolution for the "Résultat final" panel: (key, label, value)
    summary: Callable[[Any], list[tuple[str, str, str]]] | None = None
    # the same dice with other choices (focus, interposition…): (label, flat changes, is current)
    variations: Callable[[Any], list[tuple[str, dict[str, Any], bool]]] | None = None


_PLUGINS: dict[str, WebPlugin] = {}


def register(plugin: WebPlugin) -> WebPlugin:
    _PLUGINS[plugin.slug] = plugin
    return plugin


def get(slug: str) -> WebPlugin:
    return _PLUGINS.get(slug) or WebPlugin(slug=slug, fields_template="calculator/_generic_fields.html")
