"""Random public ids for the audit log's entries (games.models.new_public_id), as 0024 gave
press and payments: row ids count every entry on the site, so the gaps between the ids a
moderator who also plays could read told when two other powers paid each other. Every
existing entry gets one too; 0032 makes them unique and gives every new entry one."""

import secrets

from django.db import migrations, models

LOW, HIGH = 10**15, 2**53 - 1


def fill(apps, schema_editor):
    model = apps.get_model("games", "ModeratorAction")
    taken = set()
    for row in model.objects.filter(public_id__isnull=True).only("pk").iterator():
        while True:
            candidate = LOW + secrets.randbelow(HIGH - LOW + 1)
            if candidate not in taken:
                break
        taken.add(candidate)
        model.objects.filter(pk=row.pk).update(public_id=candidate)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0030_message_recipients_moderator"),
    ]

    operations = [
        migrations.AddField(
            model_name="moderatoraction",
            name="public_id",
            field=models.PositiveBigIntegerField(null=True, editable=False),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
