from axes.apps import AppConfig as AxesAppConfig
from django.apps import AppConfig


class AccountsConfig(AppConfig):
    default = True  # the app's own config: AxesConfig below is installed by its dotted path
    name = "accounts"
    verbose_name = "Comptes des MJ"


class AxesConfig(AxesAppConfig):  # type: ignore[misc]  # django-axes ships no type hints
    """django-axes under a French name in the admin (issue 15, item 4: its section said « Axes »).

    Installed in its place (``calculator.settings.INSTALLED_APPS``): same app, same label ``axes``,
    same models and migrations; only the name the admin shows changes."""

    verbose_name = "Verrouillage des connexions"
