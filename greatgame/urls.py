"""Top-level URL routes."""

from django.contrib import admin
from django.urls import path

from games.views import healthz

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
]
