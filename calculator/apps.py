from django.apps import AppConfig


class CalculatorConfig(AppConfig):
    name = "calculator"
    verbose_name = "Partages et liens courts"  # its models: shared results, short links (admin)

    def ready(self) -> None:
        from django.utils.translation import get_language, gettext

        from calculator import bestiary_cache, clientip, limits
        from rulesets.core.i18n import set_translator
        from rulesets.core.registry import load_all

        set_translator(gettext, get_language)
        load_all()
        bestiary_cache.connect()
        # a malformed TRUSTED_PROXIES or rate stops the server starting (issue 17); importing
        # calculator.limits registers its system check
        clientip.current_trust()
        limits.check_settings()
