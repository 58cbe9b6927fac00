"""The audit log's public ids filled in 0031, unique and given to every new entry (a migration
of its own, as 0025 is)."""

from django.db import migrations, models

import games.models

HELP = (
    "The id the API and the pages show: random, so that it tells nothing of the rows a "
    "viewer may not see."
)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0031_audit_public_ids"),
    ]

    operations = [
        migrations.AlterField(
            model_name="moderatoraction",
            name="public_id",
            field=models.PositiveBigIntegerField(
                default=games.models.new_audit_id, editable=False, help_text=HELP, unique=True
            ),
        ),
    ]
