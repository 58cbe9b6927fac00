"""The public ids filled in 0024, unique and given to every new row (a migration of its own:
see 0024)."""

from django.db import migrations, models

import games.models

HELP = (
    "The id the API and the pages show: random, so that it tells nothing of the rows a "
    "viewer may not see."
)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0024_message_privacy"),
    ]

    operations = [
        migrations.AlterField(
            model_name="message",
            name="public_id",
            field=models.PositiveBigIntegerField(
                default=games.models.new_message_id, editable=False, help_text=HELP, unique=True
            ),
        ),
        migrations.AlterField(
            model_name="payment",
            name="public_id",
            field=models.PositiveBigIntegerField(
                default=games.models.new_payment_id, editable=False, help_text=HELP, unique=True
            ),
        ),
    ]
