"""A game's name may not hold control or invisible formatting characters (a line break in one
broke every mail subject it went into). Only the field's validators change: no SQL."""

import games.models
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0020_order_rows_as_values"),
    ]

    operations = [
        migrations.AlterField(
            model_name="game",
            name="name",
            field=models.CharField(max_length=100, validators=[games.models.validate_game_name]),
        ),
    ]
