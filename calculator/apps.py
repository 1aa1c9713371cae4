from django.apps import AppConfig


class CalculatorConfig(AppConfig):
    name = "calculator"
    verbose_name = "Estoc"

    def ready(self) -> None:
        from django.utils.translation import gettext

        from calculator import bestiary_cache
        from rulesets.core.i18n import set_translator
        from rulesets.core.registry import load_all

        set_translator(gettext)
        load_all()
        bestiary_cache.connect()
