"""Invitation: send one (a logged-in game master), accept one (a visitor with the link)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts import services
from accounts.forms import AcceptForm, InviteForm
from accounts.models import Invitation

ERROR_INVITATION = "Cette invitation n'est plus valable (déjà utilisée ou expirée)\u202f: demandez-en une nouvelle."


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def invite(request: HttpRequest) -> HttpResponse:
    form = InviteForm(request.POST or None)
    sent = None
    status = 200
    if request.method == "POST":
        if form.is_valid():
            url = request.build_absolute_uri(reverse("accept_invitation", args=["TOKEN"]))
            sent = services.invitation_send(email=form.cleaned_data["email"], invited_by=request.user, accept_url=url)
            messages.success(request, _("Invitation envoyée à {email}.").format(email=sent.email))
            form = InviteForm()
        else:
            status = 422
    invitations = Invitation.objects.filter(invited_by_id=request.user.pk)[:20]
    return render(request, "accounts/invite.html", {"form": form, "invitations": invitations}, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
def accept_invitation(request: HttpRequest, token: str) -> HttpResponse:
    # PostgreSQL refuses a NUL in a query: no token has one (issue 17, finding 4)
    invitation = Invitation.objects.filter(token=token).first() if "\x00" not in token else None
    if invitation is None or not invitation.usable():
        return render(request, "accounts/accept.html", {"error": ERROR_INVITATION}, status=410)
    form = AcceptForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = services.invitation_accept(
            invitation=invitation,
            username=form.cleaned_data["username"],
            password=form.cleaned_data["password1"],
        )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return HttpResponseRedirect(reverse("encounters:list"), status=303)
    status = 422 if request.method == "POST" else 200
    return render(request, "accounts/accept.html", {"form": form, "invitation": invitation}, status=status)
