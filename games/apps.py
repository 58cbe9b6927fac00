from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        # Ratings move when a game is saved finished (and back on a rollback): a signal.
        from . import ratings  # noqa: F401
