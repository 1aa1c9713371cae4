"""Factories for game masters and encounters."""

import factory
from django.contrib.auth import get_user_model

from encounters.models import Combatant, Encounter

PASSWORD = "un-mot-de-passe-solide-42"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"mj{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def saved(obj, create, extracted, **kwargs):
        if create:
            obj.save()


class EncounterFactory(factory.django.DjangoModelFactory[Encounter]):
    class Meta:
        model = Encounter

    owner = factory.SubFactory(UserFactory)
    system = "encore"
    name = factory.Sequence(lambda n: f"Rencontre {n}")
    clock = factory.LazyFunction(dict)


class CombatantFactory(factory.django.DjangoModelFactory[Combatant]):
    class Meta:
        model = Combatant

    encounter = factory.SubFactory(EncounterFactory)
    kind = "pj"
    name = factory.LazyAttribute(lambda c: c.state.get("name", "PJ"))
    state = factory.LazyFunction(lambda: {"name": "PJ"})
    position = factory.Sequence(int)
