from typing import Any

from django.http import HttpRequest

from rulesets.core.registry import load_all


def rulesets(request: HttpRequest) -> dict[str, Any]:
    """The registered rule systems, for the navigation."""
    from calculator.views import page_path

    return {
        "available_rulesets": [
            {"slug": r.slug, "name": r.name, "tagline": r.tagline, "url": page_path(r.slug)}
            for r in load_all().values()
        ]
    }
