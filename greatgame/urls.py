"""Top-level URL routes."""

from django.contrib import admin
from django.urls import include, path
from rest_framework.routers import DefaultRouter

from games import language_views
from games.api import (
    DocsView,
    GameViewSet,
    NotificationSettingsView,
    PasswordView,
    SchemaView,
    SignupView,
    TokenView,
    VariantViewSet,
)
from games.ratings_views import LeaderboardView, PlayerView, RequirementView
from games.reach_views import (
    PushKeyView,
    PushSubscriptionsView,
    WebhooksView,
    WebhookView,
)
from games.sandbox import SandboxOrdersView, SandboxPaymentsView, SandboxStepView, SandboxView
from games.views import healthz

handler404 = "games.api.not_found"
handler500 = "games.views.server_error"

# No ".json" suffix routes: nothing uses them, and an action without a ``format`` argument was
# a 500 through one (POST /api/games/1/orders/check.json/).
router = DefaultRouter()
router.include_format_suffixes = False
router.register("games", GameViewSet, basename="game")
router.register("variants", VariantViewSet, basename="variant")

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    # set_language, the language picker; the mail language follows it until chosen apart
    path("i18n/setlang/", language_views.set_language, name="set_language"),
    path("api/auth/token/", TokenView.as_view(), name="api-token"),
    path("api/auth/signup/", SignupView.as_view(), name="api-signup"),
    path("api/auth/password/", PasswordView.as_view(), name="api-password"),
    path("api/auth/notifications/", NotificationSettingsView.as_view(), name="api-notifications"),
    path("api/schema/", SchemaView.as_view(), name="schema"),
    # The split view serves Swagger UI's start-up script as a file: no inline script for CSP.
    path("api/docs/", DocsView.as_view(url_name="schema"), name="api-docs"),
    path("api/players/<str:username>/", PlayerView.as_view(), name="api-player"),
    path("api/leaderboard/", LeaderboardView.as_view(), name="api-leaderboard"),
    path("api/games/<int:pk>/requirements/", RequirementView.as_view(), name="api-requirements"),
    path("api/sandbox/", SandboxView.as_view(), name="api-sandbox"),
    path("api/games/<int:pk>/webhooks/", WebhooksView.as_view(), name="api-webhooks"),
    path("api/games/<int:pk>/webhooks/<int:hook>/", WebhookView.as_view(), name="api-webhook"),
    path("api/push/key/", PushKeyView.as_view(), name="api-push-key"),
    path("api/push/subscriptions/", PushSubscriptionsView.as_view(), name="api-push"),
    path(
        "api/sandbox/<int:pk>/orders/<str:power>/",
        SandboxOrdersView.as_view(),
        name="api-sandbox-orders",
    ),
    path(
        "api/sandbox/<int:pk>/payments/<str:power>/",
        SandboxPaymentsView.as_view(),
        name="api-sandbox-payments",
    ),
    path("api/sandbox/<int:pk>/<str:step>/", SandboxStepView.as_view(), name="api-sandbox-step"),
    path("api/", include(router.urls)),
    path("", include("games.urls_web")),
]
