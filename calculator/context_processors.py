from typing import Any

from django.http import HttpRequest

from rulesets.core.registry import load_all


def rulesets(request: HttpRequest) -> dict[str, Any]:
    """The registered rule systems, for the navigation."""
    return {"available_rulesets": list(load_all().values())}
