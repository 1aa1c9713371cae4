from django.apps import AppConfig


class EncoreConfig(AppConfig):
    name = "bestiary.encore"
    label = "encore"
    verbose_name = "enCORE"

    def ready(self) -> None:
        from bestiary.encore import web  # noqa: F401  (registers the page plug-in)
