# Item kinds (jeu, jouet, grand jeu…) and their loan rules; every copy becomes a « Jeu » (0023, 0024).

import django.db.models.deletion
from django.db import migrations, models


def create_default_kind(apps, schema_editor):
    """The kind every copy had until now: « Jeu », the kind of new copies."""
    apps.get_model('catalogue', 'ItemKind').objects.get_or_create(name='Jeu', defaults={'is_default': True})


class Migration(migrations.Migration):

    dependencies = [
        ('catalogue', '0021_game_date_bookable'),
    ]

    operations = [
        migrations.CreateModel(
            name='ItemKind',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=60, unique=True, verbose_name='nom')),
                ('is_default', models.BooleanField(default=False, help_text='Un seul type : celui que reçoit un exemplaire ajouté sans type.', verbose_name='type des nouveaux exemplaires')),
                ('loan_period_days', models.PositiveSmallIntegerField(blank=True, help_text="Vide : la durée de l'adhésion de la famille.", null=True, verbose_name='durée du prêt (jours)')),
                ('loan_fee', models.DecimalField(blank=True, decimal_places=2, help_text="Remplacent ceux de l'adhésion (0 : prêt gratuit) ; vide : les frais de l'adhésion.", max_digits=7, null=True, verbose_name='frais par prêt (€)')),
                ('deposit', models.DecimalField(blank=True, decimal_places=2, help_text='Reçue au prêt, rendue au retour du jeu ; vide : pas de caution.', max_digits=7, null=True, verbose_name='caution (€)')),
                ('loan_quota', models.PositiveSmallIntegerField(blank=True, help_text="En plus du maximum de l'adhésion ; vide : seul le maximum de l'adhésion compte.", null=True, verbose_name='exemplaires de ce type par famille')),
            ],
            options={
                'verbose_name': "type d'objet",
                'verbose_name_plural': "types d'objet",
                'ordering': ['name'],
                'constraints': [models.UniqueConstraint(condition=models.Q(('is_default', True)), fields=('is_default',), name='catalogue_itemkind_one_default', violation_error_message='Un seul type peut être celui des nouveaux exemplaires.'), models.CheckConstraint(condition=models.Q(('loan_period_days__isnull', True), ('loan_period_days__gte', 1), _connector='OR'), name='catalogue_itemkind_period_positive', violation_error_message='Un prêt dure au moins un jour.'), models.CheckConstraint(condition=models.Q(('loan_quota__isnull', True), ('loan_quota__gte', 1), _connector='OR'), name='catalogue_itemkind_quota_positive', violation_error_message='Une famille doit pouvoir emprunter au moins un exemplaire de ce type (vide : sans limite).'), models.CheckConstraint(condition=models.Q(models.Q(('loan_fee__isnull', True), ('loan_fee__gte', 0), _connector='OR'), models.Q(('deposit__isnull', True), ('deposit__gt', 0), _connector='OR')), name='catalogue_itemkind_money_not_negative', violation_error_message='Les frais ne peuvent pas être négatifs, et une caution est positive (vide : aucune).')],
            },
        ),
        migrations.RunPython(create_default_kind, migrations.RunPython.noop),
        # Nullable first: 0023 gives every copy « Jeu », 0024 makes the kind required.
        migrations.AddField(
            model_name='copy',
            name='kind',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name='copies', to='catalogue.itemkind', verbose_name="type d'objet"),
        ),
    ]
