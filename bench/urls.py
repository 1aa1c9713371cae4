"""The project's URLs plus a bare view, for the benchmarks (same middleware for both)."""

from django.http import HttpRequest, HttpResponse
from django.urls import include, path


def bare(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok")


urlpatterns = [
    path("bench/bare/", bare),
    path("", include("calculator.urls")),
]
