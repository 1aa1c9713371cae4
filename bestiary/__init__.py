"""Data of every rule system (creatures, weapons, protections, effects, dice, settings).

Each rule system has its own Django app ``bestiary/<slug>/`` (models, admin, selectors,
migrations); ``calculator.settings`` installs every sub-app it finds.
"""
