"""Game master accounts: login and logout, invitations, password reset by e-mail, brute force."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.utils import timezone

from accounts.models import Invitation
from accounts.views import ERROR_INVITATION
from tests.factories_encounters import PASSWORD, UserFactory
from tests.pages import folded, text

pytestmark = pytest.mark.django_db


def test_the_login_page_is_french_and_leads_back_to_the_encounters(client):
    user = UserFactory()
    page = client.get("/accounts/login/?next=/encounters/")
    assert page.status_code == 200
    assert "Connexion des MJ" in text(page)
    response = client.post(
        "/accounts/login/", {"username": user.username, "password": PASSWORD, "next": "/encounters/"}
    )
    assert response.status_code == 302
    assert response["Location"] == "/encounters/"
    assert client.get("/encounters/").status_code == 200


def test_a_wrong_password_gets_a_french_message_and_keeps_the_login(client):
    user = UserFactory()
    response = client.post("/accounts/login/", {"username": user.username, "password": "faux"})
    assert response.status_code == 200
    body = text(response)
    assert "Saisissez un nom d’utilisateur et un mot de passe valides" in body
    assert f'value="{user.username}"' in response.content.decode()
    assert 'type="password"' in response.content.decode()


def test_the_gm_login_is_locked_after_repeated_failures_with_a_french_page(client, settings):
    user = UserFactory()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert client.post("/accounts/login/", {"username": user.username, "password": "faux"}).status_code == 200
    locked = client.post("/accounts/login/", {"username": user.username, "password": "faux"})
    assert locked.status_code == 429
    assert "Connexion bloquée" in text(locked)
    assert "Réessayez dans 1 h" in text(locked)
    again = client.post("/accounts/login/", {"username": user.username, "password": PASSWORD})
    assert again.status_code == 429


def test_logout_is_a_post_and_closes_the_session(client):
    user = UserFactory()
    client.force_login(user)
    assert client.get("/accounts/logout/").status_code == 405
    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert client.get("/encounters/").status_code == 302


def test_a_game_master_invites_someone_who_then_chooses_a_login_and_a_password(client):
    gm = UserFactory(username="morgane")
    client.force_login(gm)
    response = client.post("/accounts/invite/", {"email": "nouveau@example.org"})
    assert response.status_code == 200
    assert "Invitation envoyée à nouveau@example.org." in text(response)
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["nouveau@example.org"]
    assert "morgane vous invite" in message.body
    link = re.search(r"http://testserver(/accounts/invitation/[^/\s]+/)", message.body).group(1)

    guest = Client()
    page = guest.get(link)
    assert page.status_code == 200
    assert "Invitation pour nouveau@example.org." in text(page)
    refused = guest.post(link, {"username": "nouveau", "password1": "abc", "password2": "abd"})
    assert refused.status_code == 422
    assert "Les deux mots de passe ne correspondent pas." in text(refused)
    assert 'value="nouveau"' in refused.content.decode()
    response = guest.post(link, {"username": "nouveau", "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 303
    assert response["Location"] == "/encounters/"
    assert guest.get("/encounters/").status_code == 200
    user = get_user_model().objects.get(username="nouveau")
    assert user.email == "nouveau@example.org"
    again = Client().get(link)
    assert again.status_code == 410
    assert folded(ERROR_INVITATION) in text(again)


def test_an_expired_or_unknown_invitation_is_refused_in_french(client, settings):
    invitation = Invitation.objects.create(email="tard@example.org")
    Invitation.objects.filter(pk=invitation.pk).update(
        created_at=timezone.now() - timedelta(days=settings.INVITATION_DAYS + 1)
    )
    response = client.get(f"/accounts/invitation/{invitation.token}/")
    assert response.status_code == 410
    assert folded(ERROR_INVITATION) in text(response)
    assert client.get("/accounts/invitation/nope/").status_code == 410


def test_inviting_needs_an_account_and_a_valid_address(client):
    assert client.get("/accounts/invite/").status_code == 302
    client.force_login(UserFactory())
    response = client.post("/accounts/invite/", {"email": "pas-une-adresse"})
    assert response.status_code == 422
    assert "Saisissez une adresse e-mail valide." in text(response)
    assert 'value="pas-une-adresse"' in response.content.decode()
    assert mail.outbox == []


def test_an_admin_invitation_sends_the_email_too(admin_client):
    response = admin_client.post("/admin/accounts/invitation/add/", {"email": "par-admin@example.org"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert "/accounts/invitation/" in mail.outbox[0].body


def test_a_forgotten_password_is_reset_through_the_emailed_link(client):
    user = UserFactory(email="mj@example.org")
    response = client.post("/accounts/password_reset/", {"email": "mj@example.org"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    body = mail.outbox[0].body
    assert "nouveau mot de passe" in body
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", body).group(1)
    form = client.get(link, follow=True)
    assert "Nouveau mot de passe" in text(form)
    set_url = form.redirect_chain[-1][0] if form.redirect_chain else link
    response = client.post(
        set_url, {"new_password1": "un-autre-mot-de-passe-99", "new_password2": "un-autre-mot-de-passe-99"}
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("un-autre-mot-de-passe-99")


def test_the_calculators_stay_open_without_an_account(client):
    for url in ("/", "/encore/", "/nephilim/", "/feerie/", "/feerie/action/", "/quadrature/", "/aventuriers/"):
        assert client.get(url).status_code == 200, url
