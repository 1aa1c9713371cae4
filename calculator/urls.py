from django.contrib import admin
from django.urls import include, path

from bestiary.quadrature import pdf as quadrature_pdf
from calculator import health, pwa, share_image_views, share_views, views
from calculator.api import api
from encounters import player_views

urlpatterns = [
    path("", views.home, name="home"),
    path("sw.js", pwa.service_worker, name="service_worker"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("offline/", pwa.offline, name="offline"),
    path("healthz", health.healthz, name="healthz"),  # the container's health check (calculator/health.py)
    path("admin/", admin.site.urls),
    path("api/", api.urls),
    path("accounts/", include("accounts.urls")),
    path("encounters/", include("encounters.urls")),
    path("r/", share_views.share_create, name="share_create"),
    # before r/<id>, whose <str> would take "abc.png" as the share "abc.png" (calculator/share_image_views.py)
    path("r/<str:share_id>.png", share_image_views.shared_png, name="shared_png"),
    path("r/<str:share_id>.svg", share_image_views.shared_svg, name="shared_svg"),
    path("r/<str:share_id>", share_views.shared, name="shared"),
    path("r/<str:share_id>/capture", share_views.shared_capture, name="shared_capture"),
    path("r/<str:share_id>/wiki.txt", share_views.shared_text, {"kind": "wiki"}, name="shared_wiki"),
    path("r/<str:share_id>/markdown.md", share_views.shared_text, {"kind": "markdown"}, name="shared_markdown"),
    # a permalink too long even compact: the calculator from the stored URL (calculator/short_links.py)
    path("p/<str:link_id>", share_views.short_link, name="short_link"),
    # the players' live view of an encounter (encounters/player_views.py)
    path("live/<str:token>/", player_views.player_page, name="player"),
    path("live/<str:token>/state", player_views.player_state, name="player_state"),
    path("live/<str:token>/events", player_views.player_events, name="player_events"),
    # the Quadrature sheet as one A5 landscape PDF, from the page's own query (bestiary/quadrature/pdf.py)
    path("quadrature/fiche.pdf", quadrature_pdf.sheet_pdf, name="quadrature_sheet_pdf"),
    path("<slug:slug>/", views.calculator, name="calculator"),
    # a second page of a rule system (ruleset "feerie-action" at /feerie/action/)
    path("<slug:slug>/<slug:page>/", views.calculator, name="calculator_page"),
]
