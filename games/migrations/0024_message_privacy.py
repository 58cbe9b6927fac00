"""Press that tells nothing of the press a reader may not read.

- Random public ids for press and payments (games.models.new_public_id): row ids count every
  message on the site, so the gaps between the ids a player could see told how much private
  press others were sending. Every existing row gets a random one too, so that the press sent
  before this migration tells nothing either (a client holding an old id as a live-events
  cursor is answered 400, and the page starts again from the game as it is).
- ``Message.readers``, the powers who may read a message, so that the database picks a
  reader's press: reading every message of the game to keep a player's made each answer's
  time grow with the private press of others."""

import secrets

from django.db import migrations, models

LOW, HIGH = 10**15, 2**53 - 1


def readers_of(sender_power, recipients):
    """As games.models.Message.readers_of, as of this migration."""
    if not recipients:
        return ""
    return "|" + "|".join(sorted({*recipients, sender_power} - {""})) + "|"


def fill_readers(apps, schema_editor):
    Message = apps.get_model("games", "Message")
    rows = Message.objects.only("pk", "sender_power", "recipients")
    for row in rows.iterator():
        readers = readers_of(row.sender_power, list(row.recipients or []))
        if readers:
            Message.objects.filter(pk=row.pk).update(readers=readers)


def fill(apps, schema_editor):
    for name in ("Message", "Payment"):
        model = apps.get_model("games", name)
        taken = set()
        for row in model.objects.filter(public_id__isnull=True).only("pk").iterator():
            while True:
                candidate = LOW + secrets.randbelow(HIGH - LOW + 1)
                if candidate not in taken:
                    break
            taken.add(candidate)
            model.objects.filter(pk=row.pk).update(public_id=candidate)


READERS_HELP = (
    "The powers who may read it, each between bars (|China|Russia|), from its sender and "
    "recipients; empty: everyone. Set when it is saved, so that the database picks a "
    "reader's press (visibility.readable_by) and none other is read."
)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0023_heartbeat"),
    ]

    operations = [
        migrations.AddField(
            model_name="message",
            name="public_id",
            field=models.PositiveBigIntegerField(null=True, editable=False),
        ),
        migrations.AddField(
            model_name="payment",
            name="public_id",
            field=models.PositiveBigIntegerField(null=True, editable=False),
        ),
        migrations.AddField(
            model_name="message",
            name="readers",
            field=models.TextField(
                blank=True,
                default="",
                editable=False,
                help_text=READERS_HELP,
            ),
            preserve_default=False,
        ),
        # Rows are written after every ALTER TABLE of this migration: PostgreSQL refuses to
        # alter a table with rows written in the same transaction ("pending trigger events"),
        # so the ids are made unique in the next migration, a transaction of its own.
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.RunPython(fill_readers, migrations.RunPython.noop),
    ]
