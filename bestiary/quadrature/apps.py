from django.apps import AppConfig


class QuadratureConfig(AppConfig):
    name = "bestiary.quadrature"
    label = "quadrature"
    verbose_name = "Quadrature — adversaires"

    def ready(self) -> None:
        from bestiary.quadrature import web  # noqa: F401  (registers the page plug-in)
