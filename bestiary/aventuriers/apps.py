from django.apps import AppConfig


class AventuriersConfig(AppConfig):
    name = "bestiary.aventuriers"
    label = "aventuriers"
    verbose_name = "Aventuriers"

    def ready(self) -> None:
        from bestiary.aventuriers import web  # noqa: F401  (registers the page plug-in)
