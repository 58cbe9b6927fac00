"""Create the demo superuser so a fresh `make run` can be logged into at once."""

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Create the demo superuser demo/demo (development only; safe to run again)."

    def handle(self, *args: Any, **options: Any) -> None:
        # A well-known password must never reach a production database.
        if not settings.DEBUG:
            raise CommandError("seed_demo only runs with DEBUG on.")
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(
            username="demo", defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            user.set_password("demo")
            user.save()
            self.stdout.write("Created superuser demo (password demo).")
        else:
            self.stdout.write("Superuser demo already exists.")
