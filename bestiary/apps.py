from django.apps import AppConfig


class BestiaryConfig(AppConfig):
    name = "bestiary"
    verbose_name = "Bestiaire"
