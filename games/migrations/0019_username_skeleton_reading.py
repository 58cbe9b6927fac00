from django.conf import settings
from django.db import migrations


def recompute(apps, schema_editor):
    """The skeleton now reads case variants of every script alike and ``rn`` as ``m``: every
    account's is made again."""
    from games.usernames import recompute_all

    recompute_all(apps, schema_editor)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0018_orders_of_stacked_armies"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(recompute, migrations.RunPython.noop)]
