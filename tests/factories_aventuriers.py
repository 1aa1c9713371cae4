"""Typed factory-boy factories for the Aventuriers bestiary (kept apart from the shared factories)."""

import factory

from bestiary.aventuriers.models import (
    DieFace,
    DieType,
    Monster,
    MonsterDie,
    Protection,
    ProtectionDie,
    Weapon,
    WeaponDie,
)


class DieTypeFactory(factory.django.DjangoModelFactory[DieType]):
    class Meta:
        model = DieType

    key = factory.Sequence(lambda n: f"de{n}")
    name = factory.Sequence(lambda n: f"Dé n°{n}")
    position = factory.Sequence(lambda n: n + 1)


class DieFaceFactory(factory.django.DjangoModelFactory[DieFace]):
    class Meta:
        model = DieFace

    die = factory.SubFactory(DieTypeFactory)
    position = factory.Sequence(lambda n: n % 12 + 1)
    damage = 1


class WeaponFactory(factory.django.DjangoModelFactory[Weapon]):
    class Meta:
        model = Weapon

    name = factory.Sequence(lambda n: f"Arme {n}")


class WeaponDieFactory(factory.django.DjangoModelFactory[WeaponDie]):
    class Meta:
        model = WeaponDie

    weapon = factory.SubFactory(WeaponFactory)
    die = factory.SubFactory(DieTypeFactory)
    count = 1


class ProtectionFactory(factory.django.DjangoModelFactory[Protection]):
    class Meta:
        model = Protection

    name = factory.Sequence(lambda n: f"Protection {n}")


class ProtectionDieFactory(factory.django.DjangoModelFactory[ProtectionDie]):
    class Meta:
        model = ProtectionDie

    protection = factory.SubFactory(ProtectionFactory)
    die = factory.SubFactory(DieTypeFactory)
    count = 1


class MonsterFactory(factory.django.DjangoModelFactory[Monster]):
    class Meta:
        model = Monster

    name = factory.Sequence(lambda n: f"Monstre {n}")
    pv = 4
    px = 2


class MonsterDieFactory(factory.django.DjangoModelFactory[MonsterDie]):
    class Meta:
        model = MonsterDie

    monster = factory.SubFactory(MonsterFactory)
    die = factory.SubFactory(DieTypeFactory)
    count = 1
    roll = MonsterDie.Roll.ATTACK
