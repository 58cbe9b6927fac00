from django.db import migrations


def clear_dislodged(apps, schema_editor) -> None:
    """Phases opened after a unit was dislodged with nowhere to retreat (the engine skipped the
    retreat phase) were given that unit as dislodged, and drew it: only a retreat phase holds
    dislodged units."""
    Phase = apps.get_model("games", "Phase")
    Phase.objects.exclude(type="retreats").exclude(dislodged=[]).update(dislodged=[])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0028_membership_seated"),
    ]

    operations = [
        migrations.RunPython(clear_dislodged, migrations.RunPython.noop),
    ]
