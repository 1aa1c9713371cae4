from django.apps import AppConfig


class CalculatorConfig(AppConfig):
    name = "calculator"
    verbose_name = "Partages et liens courts"  # its models: shared results, short links (admin)

    def ready(self) -> None:
        from django.conf import settings
        from django.utils.translation import get_language, gettext

        from calculator import bestiary_cache, clientip, limits
        from rulesets.core.i18n import set_translator
        from rulesets.core.registry import load_all

        # one language (French): a text's translation cannot change with the request, so the engines'
        # texts are remembered without asking the active language for each (some 12,000 times for
        # an enCORE pool's odds, the largest part of them: issue 18)
        set_translator(gettext, get_language if len(settings.LANGUAGES) > 1 else None)
        load_all()
        bestiary_cache.connect()
        # a malformed TRUSTED_PROXIES or rate stops the server starting (issue 17); importing
        # calculator.limits registers its system check
        clientip.current_trust()
        limits.check_settings()
