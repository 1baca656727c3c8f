"""The families move from the loans app to this one: the models only, the tables stay.

Nothing changes in the database: the models keep their tables (`db_table`: loans_member,
loans_householdmember, loans_membershiptype), their constraints and their indexes, which the loans
migrations created and the history guards of the loans and ledger migrations rely on. The content
types follow the models, so that permissions and the admin's log keep pointing at them.
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


FAMILY_MODELS = ("member", "householdmember", "membershiptype")


def _move_content_types(apps, schema_editor, source: str, target: str) -> None:
    content_types = apps.get_model("contenttypes", "ContentType").objects.using(schema_editor.connection.alias)
    for model in FAMILY_MODELS:
        if not content_types.filter(app_label=target, model=model).exists():
            content_types.filter(app_label=source, model=model).update(app_label=target)


def content_types_follow(apps, schema_editor) -> None:
    _move_content_types(apps, schema_editor, "loans", "members")


def content_types_go_back(apps, schema_editor) -> None:
    _move_content_types(apps, schema_editor, "members", "loans")



class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('loans', '0009_membershiptype_public'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='MembershipType',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=80, unique=True, verbose_name='nom')),
                        ('duration_days', models.PositiveSmallIntegerField(default=365, help_text="365 pour une adhésion d'un an.", verbose_name='durée (jours)')),
                        ('price', models.DecimalField(decimal_places=2, default=0, max_digits=7, verbose_name='prix (€)')),
                        ('public', models.BooleanField(default=True, help_text="Affichée avec son prix sur la page d'accueil, dans « Devenir membre ».", verbose_name='présentée aux visiteurs')),
                        ('loan_quota', models.PositiveSmallIntegerField(default=3, help_text='Nombre maximum de prêts en cours.', verbose_name='jeux empruntés en même temps')),
                        ('loan_period_days', models.PositiveSmallIntegerField(default=21, help_text='La date de retour est la date du prêt plus ce délai.', verbose_name='durée du prêt (jours)')),
                        ('renewals_allowed', models.PositiveSmallIntegerField(default=1, verbose_name='prolongations permises')),
                        ('late_loans', models.CharField(choices=[('warn', 'prêter, en prévenant le comptoir du retard'), ('refuse', "refuser tout nouveau prêt tant que le jeu en retard n'est pas rendu")], default='warn', help_text='Au prêt suivant, le comptoir nomme toujours le jeu en retard ; il peut aussi refuser le prêt.', max_length=10, verbose_name='famille avec un jeu en retard')),
                        ('loan_fee', models.DecimalField(decimal_places=2, default=0, help_text='Facturés à chaque prêt ; 0 : aucun.', max_digits=7, verbose_name='frais par prêt (€)')),
                        ('late_fee_per_day', models.DecimalField(decimal_places=2, default=0, help_text="Proposés au retour d'un jeu en retard, par jour de retard ; 0 : aucun.", max_digits=7, verbose_name='frais de retard par jour (€)')),
                        ('late_fee_cap', models.DecimalField(blank=True, decimal_places=2, help_text='Par prêt ; vide : sans plafond.', max_digits=7, null=True, verbose_name='plafond des frais de retard (€)')),
                        ('charge_missing_pieces', models.BooleanField(default=False, help_text='Au prix de chaque pièce fixé dans le catalogue ; remboursé si la pièce est rapportée.', verbose_name='facturer les pièces manquantes')),
                        ('charge_lost_games', models.BooleanField(default=False, help_text="À la valeur de remplacement de l'exemplaire fixée dans le catalogue.", verbose_name='facturer les jeux perdus')),
                        ('debt_limit', models.DecimalField(decimal_places=2, default=0, help_text='Le prêt est refusé quand la famille doit plus que ce montant ; 0 : jamais refusé.', max_digits=7, verbose_name='plafond de dette (€)')),
                        ('due_soon_days', models.PositiveSmallIntegerField(blank=True, default=3, help_text='Nombre de jours avant la date de retour. Vide : pas de rappel.', null=True, verbose_name="rappel avant l'échéance (jours)")),
                        ('overdue_level1_days', models.PositiveSmallIntegerField(blank=True, default=7, help_text='Jours de retard. Vide : pas de 1er rappel.', null=True, verbose_name='1er rappel de retard (jours)')),
                        ('overdue_level2_days', models.PositiveSmallIntegerField(blank=True, default=21, help_text='Jours de retard. Vide : pas de 2e rappel.', null=True, verbose_name='2e rappel de retard (jours)')),
                        ('overdue_level3_days', models.PositiveSmallIntegerField(blank=True, default=42, help_text='Jours de retard ; toujours envoyée par courrier. Vide : pas de lettre.', null=True, verbose_name='lettre de mise en demeure (jours)')),
                        ('notify_hold_ready', models.BooleanField(default=True, help_text="Prévenir la famille dès qu'un exemplaire est mis de côté pour elle.", verbose_name='avis de réservation prête')),
                        ('hold_expiring_days', models.PositiveSmallIntegerField(blank=True, default=2, help_text="Jours avant la date limite de retrait d'une réservation. Vide : pas de rappel.", null=True, verbose_name='rappel avant la fin du retrait (jours)')),
                        ('membership_expiring_days', models.PositiveSmallIntegerField(blank=True, default=30, help_text='Vide : pas de rappel.', null=True, verbose_name="rappel avant la fin de l'adhésion (jours)")),
                    ],
                    options={
                        'verbose_name': "type d'adhésion",
                        'verbose_name_plural': "types d'adhésion",
                        'db_table': 'loans_membershiptype',
                        'ordering': ['name'],
                        'constraints': [models.CheckConstraint(condition=models.Q(('duration_days__gte', 1)), name='loans_membershiptype_duration_positive', violation_error_message='Une adhésion dure au moins un jour.'), models.CheckConstraint(condition=models.Q(('loan_quota__gte', 1)), name='loans_membershiptype_quota_positive', violation_error_message='Une famille doit pouvoir emprunter au moins un jeu.'), models.CheckConstraint(condition=models.Q(('loan_period_days__gte', 1)), name='loans_membershiptype_period_positive', violation_error_message='Un prêt dure au moins un jour.'), models.CheckConstraint(condition=models.Q(('price__gte', 0)), name='loans_membershiptype_price_not_negative', violation_error_message='Le prix ne peut pas être négatif.'), models.CheckConstraint(condition=models.Q(('debt_limit__gte', 0), ('late_fee_per_day__gte', 0), ('loan_fee__gte', 0), models.Q(('late_fee_cap__isnull', True), ('late_fee_cap__gt', 0), _connector='OR')), name='loans_membershiptype_fees_not_negative', violation_error_message='Les frais et les plafonds ne peuvent pas être négatifs.'), models.CheckConstraint(condition=models.Q(('overdue_level1_days__isnull', True), models.Q(('overdue_level1_days__gte', 1), models.Q(('overdue_level2_days__isnull', True), ('overdue_level2_days__gt', models.F('overdue_level1_days')), _connector='OR'), models.Q(('overdue_level3_days__isnull', True), ('overdue_level3_days__gt', models.F('overdue_level1_days')), _connector='OR')), _connector='OR'), name='loans_membershiptype_overdue_levels_in_order', violation_error_message='Les rappels de retard se suivent : le 1er après au moins un jour, les suivants plus tard.'), models.CheckConstraint(condition=models.Q(('overdue_level2_days__isnull', True), ('overdue_level3_days__isnull', True), ('overdue_level3_days__gt', models.F('overdue_level2_days')), _connector='OR'), name='loans_membershiptype_overdue_level3_after_level2', violation_error_message='La lettre de mise en demeure vient après le 2e rappel.')],
                    },
                ),
                migrations.CreateModel(
                    name='Member',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('card_barcode', models.CharField(max_length=40, verbose_name='numéro de carte')),
                        ('name', models.CharField(max_length=160, verbose_name='adulte responsable')),
                        ('email', models.EmailField(blank=True, max_length=254, verbose_name='e-mail')),
                        ('phone', models.CharField(blank=True, max_length=40, verbose_name='téléphone')),
                        ('address', models.TextField(blank=True, help_text='Adresse postale, pour les lettres des familles sans e-mail.', verbose_name='adresse')),
                        ('language', models.CharField(choices=[('fr', 'français'), ('en', 'anglais')], default='fr', help_text='Langue des avis et des lettres envoyés à la famille.', max_length=2, verbose_name='langue')),
                        ('membership_start', models.DateField(default=django.utils.timezone.localdate, verbose_name="début de l'adhésion")),
                        ('membership_expiry', models.DateField(verbose_name="fin de l'adhésion")),
                        ('notes', models.TextField(blank=True, verbose_name='notes')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='inscrite le')),
                        ('calendar_token', models.CharField(blank=True, editable=False, max_length=64, verbose_name='jeton du calendrier')),
                        ('erased_at', models.DateTimeField(blank=True, editable=False, null=True, verbose_name='effacée le')),
                        ('user', models.OneToOneField(blank=True, help_text='Permet à la famille de consulter ses prêts sur /compte/.', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='member', to=settings.AUTH_USER_MODEL, verbose_name='identifiant du site')),
                        ('membership_type', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='members', to='members.membershiptype', verbose_name="type d'adhésion")),
                    ],
                    options={
                        'verbose_name': 'famille membre',
                        'verbose_name_plural': 'familles membres',
                        'db_table': 'loans_member',
                        'ordering': ['name'],
                    },
                ),
                migrations.CreateModel(
                    name='HouseholdMember',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('first_name', models.CharField(max_length=80, verbose_name='prénom')),
                        ('birth_year', models.PositiveSmallIntegerField(verbose_name='année de naissance')),
                        ('member', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='household', to='members.member', verbose_name='famille')),
                    ],
                    options={
                        'verbose_name': 'membre du foyer',
                        'verbose_name_plural': 'membres du foyer',
                        'db_table': 'loans_householdmember',
                        'ordering': ['member_id', 'birth_year', 'first_name'],
                        'constraints': [models.CheckConstraint(condition=models.Q(('birth_year__gte', 1900)), name='loans_householdmember_birth_year_plausible', violation_error_message="L'année de naissance doit être postérieure à 1900.")],
                    },
                ),
                migrations.AddConstraint(
                    model_name='member',
                    constraint=models.UniqueConstraint(fields=('card_barcode',), name='loans_member_unique_card_barcode', violation_error_message='Une autre famille a déjà ce numéro de carte.'),
                ),
                migrations.AddConstraint(
                    model_name='member',
                    constraint=models.CheckConstraint(condition=models.Q(('membership_start__lte', models.F('membership_expiry'))), name='loans_member_membership_start_lte_expiry', violation_error_message="L'adhésion ne peut pas finir avant d'avoir commencé."),
                ),
                migrations.AddConstraint(
                    model_name='member',
                    constraint=models.UniqueConstraint(condition=models.Q(('calendar_token', ''), _negated=True), fields=('calendar_token',), name='loans_member_unique_calendar_token'),
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_types_follow, content_types_go_back),
    ]
