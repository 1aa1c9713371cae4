"""Load the Nephilim fixtures once per test module (not once per test)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command

from bestiary.nephilim.models import Ammunition, Approach, Creature, DefenceType, Effect, Protection, Weapon


@pytest.fixture(scope="module")
def nephilim_data(django_db_setup: Any, django_db_blocker: Any) -> Iterator[None]:
    with django_db_blocker.unblock():
        call_command("loaddata", "fixtures/nephilim.json", verbosity=0)
    yield
    with django_db_blocker.unblock():
        for model in (Creature, Ammunition, Effect, DefenceType, Protection, Weapon, Approach):
            model.objects.all().delete()
