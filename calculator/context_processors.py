from functools import cache
from typing import Any

from django.http import HttpRequest
from django.urls import get_script_prefix, get_urlconf

from rulesets.core.registry import load_all


@cache
def _navigation(urlconf: str | None, prefix: str) -> tuple[dict[str, str], ...]:
    from calculator.views import page_path

    return tuple(
        {"slug": r.slug, "name": r.name, "tagline": r.tagline, "url": page_path(r.slug)} for r in load_all().values()
    )


def rulesets(request: HttpRequest) -> dict[str, Any]:
    """The registered rule systems, for the navigation (built once per URL configuration)."""
    return {"available_rulesets": _navigation(get_urlconf(), get_script_prefix())}
