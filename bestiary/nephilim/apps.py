from django.apps import AppConfig


class NephilimConfig(AppConfig):
    name = "bestiary.nephilim"
    label = "nephilim"
    verbose_name = "Nephilim Légende"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from bestiary.nephilim import web  # noqa: F401  (registers the page plug-in)
