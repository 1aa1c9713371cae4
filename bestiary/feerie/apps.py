from django.apps import AppConfig


class FeerieConfig(AppConfig):
    name = "bestiary.feerie"
    label = "feerie"
    verbose_name = "Contes de Fées (Féerie)"

    def ready(self) -> None:
        from bestiary.feerie import web  # noqa: F401  (registers the page plug-ins)
