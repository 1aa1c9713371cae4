from django.contrib import admin
from django.urls import path

from calculator import views
from calculator.api import api

urlpatterns = [
    path("", views.home, name="home"),
    path("admin/", admin.site.urls),
    path("api/", api.urls),
    path("<slug:slug>/", views.calculator, name="calculator"),
]
