"""Shared building blocks of every rule engine: dice, rolls, exact odds, results, registry."""
