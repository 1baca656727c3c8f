# Every existing copy is of the kind « Jeu » (made by 0022).

from django.db import migrations


def give_copies_the_default_kind(apps, schema_editor):
    ItemKind = apps.get_model('catalogue', 'ItemKind')
    kind = ItemKind.objects.filter(is_default=True).first() or ItemKind.objects.get(name='Jeu')
    apps.get_model('catalogue', 'Copy').objects.filter(kind__isnull=True).update(kind=kind)


class Migration(migrations.Migration):

    dependencies = [
        ('catalogue', '0022_item_kinds'),
    ]

    operations = [
        migrations.RunPython(give_copies_the_default_kind, migrations.RunPython.noop),
    ]
