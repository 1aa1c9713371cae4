"""Typed factory-boy factories for the bestiary models."""

import factory

from bestiary.encore.models import NPC, HealthTier, Protection, Settings, Weapon


class EncoreSettingsFactory(factory.django.DjangoModelFactory[Settings]):
    class Meta:
        model = Settings

    name = "Réglages de test"
    success_face = 5
    speciality_dice = 2
    healthy_tier = "Valide"


class HealthTierFactory(factory.django.DjangoModelFactory[HealthTier]):
    class Meta:
        model = HealthTier

    settings = factory.SubFactory(EncoreSettingsFactory)
    name = "Blessé"
    numerator = 1
    denominator = 2


class EncoreWeaponFactory(factory.django.DjangoModelFactory[Weapon]):
    class Meta:
        model = Weapon

    name = factory.Sequence(lambda n: f"Arme {n}")
    damage = 3


class EncoreProtectionFactory(factory.django.DjangoModelFactory[Protection]):
    class Meta:
        model = Protection

    name = factory.Sequence(lambda n: f"Protection {n}")
    kind = Protection.Kind.ARMOUR
    value = 1


class EncoreNPCFactory(factory.django.DjangoModelFactory[NPC]):
    class Meta:
        model = NPC

    name = factory.Sequence(lambda n: f"PNJ {n}")
    menace = 2
    sante = 4
    weapon = factory.SubFactory(EncoreWeaponFactory)
    protection = 0
