"""Issue 14, item 5: model validation on every bestiary model, so that the admin refuses a row that
would break a calculator (« Jet d'attaque : au moins un dé » after a weapon was saved with no dice).

Every fixture row is posted through its Django admin change form (its inline rows with it), saved,
then resolved on its calculator page along the preset path (``bestiary.validation.page_errors``);
the broken rows are refused on their field with the engine's French message, and nothing is saved.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import RequestFactory

from bestiary import validation

pytestmark = pytest.mark.django_db

SLUGS = ("nephilim", "encore", "feerie", "quadrature", "aventuriers")
NNBSP = "\u202f"


@pytest.fixture
def superuser() -> Any:
    return get_user_model().objects.create_superuser("admin", "admin@example.org", "un-mot-de-passe-solide-42")


@pytest.fixture
def admin_client(client: Any, superuser: Any) -> Any:
    client.force_login(superuser)
    return client


def _load(slug: str) -> None:
    call_command("loaddata", f"fixtures/{slug}.json", verbosity=0)


def _value(value: Any) -> Any:
    if value is True:
        return "on"
    if value is None or value is False:
        return None
    if isinstance(value, list | tuple):
        return [str(v) for v in value]
    return str(value)


def _form_values(form: Any, out: dict[str, Any]) -> None:
    for bf in form:
        value = _value(bf.value())
        if value is not None:
            out[bf.html_name] = value


def change_data(obj: Any, user: Any) -> dict[str, Any]:
    """What the admin change form of ``obj`` posts when saved unchanged: its fields, its inlines."""
    model_admin = admin.site._registry[type(obj)]
    request = RequestFactory().get("/")
    request.user = user
    data: dict[str, Any] = {}
    form = model_admin.get_form(request, obj, change=True)(instance=obj)
    _form_values(form, data)
    formsets, _inlines = model_admin._create_formsets(request, obj, change=True)
    for formset in formsets:
        _form_values(formset.management_form, data)
        for inline_form in formset.forms:
            _form_values(inline_form, data)
    return data


def change_url(obj: Any) -> str:
    return f"/admin/{obj._meta.app_label}/{obj._meta.model_name}/{obj.pk}/change/"


def form_errors(response: Any) -> dict[str, Any]:
    """The admin form's errors and each inline formset's (non-form and per row) of a refused post."""
    errors: dict[str, Any] = {}
    if response.context is None:
        return errors
    form = response.context["adminform"].form
    errors.update({k: list(v) for k, v in form.errors.items()})
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        if formset.non_form_errors():
            errors[f"{formset.prefix}:"] = list(formset.non_form_errors())
        for i, row in enumerate(formset.errors):
            if row:
                errors[f"{formset.prefix}-{i}"] = {k: list(v) for k, v in row.items()}
    return errors


def _admin_rows(slug: str) -> list[Any]:
    """The fixture rows that have their own admin form (inline rows are posted with their parent)."""
    return [
        row
        for model in apps.get_app_config(slug).get_models()
        if model in admin.site._registry
        for row in model.objects.order_by("pk")
    ]


@pytest.mark.parametrize("slug", SLUGS)
def test_every_fixture_row_saves_through_its_admin_form_and_resolves(slug, admin_client, superuser):
    _load(slug)
    rows = _admin_rows(slug)
    assert rows
    refused: dict[str, Any] = {}
    unresolved: dict[str, Any] = {}
    for row in rows:
        response = admin_client.post(change_url(row), change_data(row, superuser))
        if response.status_code != 302:
            refused[f"{row._meta.label} {row.pk} {row}"] = form_errors(response) or response.status_code
            continue
        row.refresh_from_db()
        use = validation.USES[row._meta.label](row)[0]
        errors, _prefix = validation.page_errors(use)
        if errors:
            unresolved[f"{row._meta.label} {row.pk} {row}"] = errors
    assert refused == {}
    assert unresolved == {}


def test_every_bestiary_model_names_how_its_row_reaches_a_calculator():
    labels = {model._meta.label for slug in SLUGS for model in apps.get_app_config(slug).get_models()}
    assert labels == set(validation.USES)
    for slug in SLUGS:
        for model in apps.get_app_config(slug).get_models():
            assert "clean_row" in model.clean.__code__.co_names, model._meta.label


# -- the broken rows -----------------------------------------------------------------------------


def test_admin_weapon_with_no_dice_is_refused_on_its_dice(admin_client, superuser):
    """The issue's finding: an Aventuriers weapon saved with no dice broke the calculator."""
    from bestiary.aventuriers.models import Weapon, WeaponDie

    _load("aventuriers")
    weapon = Weapon.objects.filter(dice__isnull=False).distinct().order_by("pk").first()
    dice_before = list(WeaponDie.objects.filter(weapon=weapon).values_list("pk", "die_id", "count"))
    data = change_data(weapon, superuser)
    for key in [k for k in data if k.startswith("dice-") and k.endswith("-id")]:
        data[key.removesuffix("-id") + "-DELETE"] = "on"
    response = admin_client.post(change_url(weapon), data)
    assert response.status_code == 200
    errors = form_errors(response)
    assert errors == {"dice:": [f"Jet d'attaque{NNBSP}: au moins un dé."]}
    assert list(WeaponDie.objects.filter(weapon=weapon).values_list("pk", "die_id", "count")) == dice_before


def test_admin_new_weapon_with_no_dice_is_refused_and_not_saved(admin_client):
    from bestiary.aventuriers.models import Weapon

    _load("aventuriers")
    count = Weapon.objects.count()
    data = {
        "name": "Bâton sans dé",
        "reach": "melee",
        "notes": "",
        "dice-TOTAL_FORMS": "0",
        "dice-INITIAL_FORMS": "0",
        "dice-MIN_NUM_FORMS": "0",
        "dice-MAX_NUM_FORMS": "1000",
    }
    response = admin_client.post("/admin/aventuriers/weapon/add/", data)
    assert response.status_code == 200
    assert form_errors(response) == {"dice:": [f"Jet d'attaque{NNBSP}: au moins un dé."]}
    assert Weapon.objects.count() == count
    assert not Weapon.objects.filter(name="Bâton sans dé").exists()


def _refused(admin_client: Any, superuser: Any, row: Any, changes: dict[str, str]) -> dict[str, Any]:
    """Post ``row``'s change form with ``changes``: the errors, and the row unchanged in the database."""
    before = type(row).objects.filter(pk=row.pk).values().get()
    data = change_data(row, superuser)
    data.update(changes)
    response = admin_client.post(change_url(row), data)
    assert response.status_code == 200
    assert type(row).objects.filter(pk=row.pk).values().get() == before
    return form_errors(response)


def test_admin_nephilim_weapon_with_too_much_ammunition_is_refused_on_ammunition(admin_client, superuser):
    from bestiary.nephilim.models import Weapon

    _load("nephilim")
    row = Weapon.objects.filter(firearm=True).order_by("pk").first()
    errors = _refused(admin_client, superuser, row, {"ammunition": "5000"})
    assert list(errors) == ["ammunition"]
    assert "Munitions" in errors["ammunition"][0]
    assert "1000" in errors["ammunition"][0]


def test_admin_quadrature_die_with_one_face_is_refused_on_faces(admin_client, superuser):
    from bestiary.quadrature.models import Die

    _load("quadrature")
    row = Die.objects.order_by("pk").first()
    errors = _refused(admin_client, superuser, row, {"faces": "3"})
    assert list(errors) == ["faces"]
    assert "Faces du dé" in errors["faces"][0]


def test_admin_quadrature_die_face_that_is_no_number_is_refused_in_french(admin_client, superuser):
    from bestiary.quadrature.models import Die

    _load("quadrature")
    row = Die.objects.order_by("pk").first()
    errors = _refused(admin_client, superuser, row, {"faces": "0,1,deux,3"})
    assert errors == {
        "faces": [
            "Faces\u202f: des nombres entiers séparés par des virgules (\u00ab\u202fdeux\u202f\u00bb n'en est pas un)."
        ]
    }


def test_admin_aventuriers_monster_with_no_attack_dice_is_refused_on_its_dice(admin_client, superuser):
    from bestiary.aventuriers.models import Monster, MonsterDie

    _load("aventuriers")
    row = Monster.objects.filter(dice__roll="attaque").distinct().order_by("pk").first()
    before = list(MonsterDie.objects.filter(monster=row).values_list("pk", "roll", "count"))
    data = change_data(row, superuser)
    for key in [k for k in data if k.startswith("dice-") and k.endswith("-roll") and data[k] == "attaque"]:
        data[key.removesuffix("-roll") + "-DELETE"] = "on"
    response = admin_client.post(change_url(row), data)
    assert response.status_code == 200
    assert form_errors(response) == {"dice:": [f"Jet d'attaque{NNBSP}: au moins un dé."]}
    assert list(MonsterDie.objects.filter(monster=row).values_list("pk", "roll", "count")) == before


def test_admin_encore_weapon_with_too_many_targets_is_refused_on_target_limit(admin_client, superuser):
    from bestiary.encore.models import Weapon

    _load("encore")
    row = Weapon.objects.order_by("pk").first()
    errors = _refused(admin_client, superuser, row, {"area": "on", "target_limit": "50"})
    assert list(errors) == ["target_limit"]
    assert "Cibles au plus" in errors["target_limit"][0]


def test_admin_feerie_tactic_whose_sum_is_not_nil_is_refused_on_the_row(admin_client, superuser):
    """The engine's own rule on the whole tactic (its three modifications sum to zero): a message on
    the row, not on one field."""
    from bestiary.feerie.models import TacticPreset

    _load("feerie")
    row = TacticPreset.objects.order_by("pk").first()
    errors = _refused(admin_client, superuser, row, {"initiative": "99"})
    assert list(errors) == ["__all__"]
    assert "La somme des modifications de tactique doit être nulle" in errors["__all__"][0]
