"""Routes of the browser pages; the API lives under /api/."""

from django.contrib.auth import views as auth_views
from django.urls import path

from . import ratings_views, reach_views, replays, sandbox, search, web
from .forms import SignInForm

urlpatterns = [
    path("", web.lobby, name="lobby"),
    path("accounts/signup/", web.signup, name="signup"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(
            next_page="lobby", redirect_authenticated_user=True, authentication_form=SignInForm
        ),
        name="login",
    ),
    path("accounts/logout/", web.SignOutView.as_view(next_page="login"), name="logout"),
    path("accounts/settings/", web.account_settings, name="account-settings"),
    path("accounts/password/", web.PasswordChangeView.as_view(), name="password-change"),
    path("games/new/", web.create_game, name="create-game"),
    path("games/", search.find_games, name="find-games"),
    path("sandbox/new/", sandbox.new_sandbox, name="sandbox-new"),
    path("games/<int:pk>/sandbox/", sandbox.sandbox_page, name="sandbox"),
    path("games/<int:pk>/sandbox/orders/", sandbox.sandbox_orders, name="sandbox-orders"),
    path("games/<int:pk>/sandbox/pay/", sandbox.sandbox_pay, name="sandbox-pay"),
    path("games/<int:pk>/sandbox/<str:step>/", sandbox.sandbox_step, name="sandbox-step"),
    path("games/<int:pk>/", web.game_page, name="game"),
    path("games/<int:pk>/board.svg", web.board, name="board"),
    path("games/<int:pk>/join/", web.join_game, name="join"),
    path("games/<int:pk>/leave/", web.leave_game, name="leave"),
    path("games/<int:pk>/orders/", web.submit_orders, name="submit-orders"),
    path("games/<int:pk>/orders/add/", web.add_order, name="add-order"),
    path("games/<int:pk>/ready/", web.ready, name="ready"),
    path("games/<int:pk>/press/", web.send_press, name="send-press"),
    path("games/<int:pk>/pay/", web.pay, name="pay"),
    path("games/<int:pk>/vote/", web.vote, name="vote"),
    path("games/<int:pk>/moderate/", web.moderate, name="moderate"),
    path("games/<int:pk>/moderate/<str:action>/", web.moderate_action, name="moderate-action"),
    path("variants/<str:variant_id>/", web.variant_page, name="variant"),
    path("games/<int:pk>/webhooks/", reach_views.webhook_add, name="webhook-add"),
    path(
        "games/<int:pk>/webhooks/<int:hook>/remove/",
        reach_views.webhook_remove,
        name="webhook-remove",
    ),
    path("players/<str:username>/", ratings_views.player_page, name="player"),
    path("leaderboard/", ratings_views.leaderboard_page, name="leaderboard"),
    path("games/<int:pk>/requirements/", ratings_views.requirements_page, name="requirements"),
    path("games/<int:pk>/phases/<int:index>.png", replays.phase_png_view, name="phase-png"),
    path("games/<int:pk>/replay.gif", replays.replay_gif_view, name="replay-gif"),
    path("games/<int:pk>/replay.json", replays.replay_json_view, name="replay-json"),
]
