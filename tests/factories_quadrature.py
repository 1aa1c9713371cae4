"""Typed factory-boy factories for the Quadrature bestiary (kept apart from the shared module)."""

import factory

from bestiary.quadrature.models import ActionCard, Adversary, Block, BodyPart, CardEffect, DeckEntry


class ActionCardFactory(factory.django.DjangoModelFactory[ActionCard]):
    class Meta:
        model = ActionCard

    name = factory.Sequence(lambda n: f"Coup n°{n}")
    cost = 1
    initiative = 3


class CardEffectFactory(factory.django.DjangoModelFactory[CardEffect]):
    class Meta:
        model = CardEffect

    card = factory.SubFactory(ActionCardFactory)
    slot = CardEffect.Slot.SUCCESS
    light = 2


class AdversaryFactory(factory.django.DjangoModelFactory[Adversary]):
    class Meta:
        model = Adversary

    name = factory.Sequence(lambda n: f"Créature n°{n}")
    gender = "f"  # « la Créature n°1 » (issue 15: a name carries its grammar)
    menace = 4
    guard = 10


class BodyPartFactory(factory.django.DjangoModelFactory[BodyPart]):
    class Meta:
        model = BodyPart

    adversary = factory.SubFactory(AdversaryFactory)
    order = factory.Sequence(lambda n: n + 1)
    name = "Corps"
    armour = 1


class BlockFactory(factory.django.DjangoModelFactory[Block]):
    class Meta:
        model = Block

    part = factory.SubFactory(BodyPartFactory)
    adversary = factory.SelfAttribute("part.adversary")
    boxes = 3


class DeckEntryFactory(factory.django.DjangoModelFactory[DeckEntry]):
    class Meta:
        model = DeckEntry

    adversary = factory.SubFactory(AdversaryFactory)
    card = factory.SubFactory(ActionCardFactory)
