from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        # The engine knows no map of its own: the server hands it the project's variants (the
        # entry point declared in pyproject.toml does the same for any other user).
        import variants

        # Ratings move when a game is saved finished (and back on a rollback): a signal.
        from . import ratings  # noqa: F401

        # Each account's username skeleton is kept beside it (games.usernames).
        from .usernames import connect

        connect()

        variants.register()
