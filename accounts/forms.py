from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _


class InviteForm(forms.Form):
    email = forms.EmailField(
        label=_("E-mail de la personne invitée"),
        error_messages={
            "invalid": _("Saisissez une adresse e-mail valide."),
            "required": _("L'e-mail est obligatoire."),
        },
    )


class AcceptForm(UserCreationForm):  # type: ignore[type-arg]
    """Choose a login and a password (Django's validators, in French)."""
