from django.contrib.auth import views as auth_views
from django.urls import include, path

from accounts import views

urlpatterns = [
    path("invite/", views.invite, name="invite"),
    path("invitation/<str:token>/", views.accept_invitation, name="accept_invitation"),
    path(
        "password_reset/",
        auth_views.PasswordResetView.as_view(email_template_name="registration/password_reset_email.txt"),
        name="password_reset",
    ),
    # login, logout, the rest of the password reset (Django's views, French templates in templates/registration/)
    path("", include("django.contrib.auth.urls")),
]
