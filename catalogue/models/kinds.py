"""The kinds of item a ludothèque lends (jeu, jouet, grand jeu, malle, jeu vidéo…) and their loan rules.

A kind belongs to the copy (Koha's item type, PMB's « type de document »): two copies of one game may
be of different kinds (a giant version of a game). Its rules are each optional; how they combine with
the family's membership type is the loans app's (`loans/loan_rules.py`, the one table that decides).
"""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

# The kind new copies get until the ludothèque says otherwise (the migration gives it to every copy).
DEFAULT_KIND_NAME = "Jeu"


class ItemKindQuerySet(models.QuerySet):
    def with_rules(self) -> "ItemKindQuerySet":
        """Kinds that change something of a loan (a period, a fee, a deposit or a quota of their own)."""
        return self.filter(
            Q(loan_period_days__isnull=False)
            | Q(loan_fee__isnull=False)
            | Q(deposit__isnull=False)
            | Q(loan_quota__isnull=False)
        )


class ItemKind(models.Model):
    """A kind of item: its name, and the loan rules it sets instead of (or on top of) the membership's."""

    name = models.CharField(_("nom"), max_length=60, unique=True)
    is_default = models.BooleanField(
        _("type des nouveaux exemplaires"),
        default=False,
        help_text=_("Un seul type : celui que reçoit un exemplaire ajouté sans type."),
    )
    loan_period_days = models.PositiveSmallIntegerField(
        _("durée du prêt (jours)"),
        null=True,
        blank=True,
        help_text=_("Vide : la durée de l'adhésion de la famille."),
    )
    loan_fee = models.DecimalField(
        _("frais par prêt (€)"),
        max_digits=7,
        decimal_places=2,
        null=True,
        blank=True,
        help_text=_("Remplacent ceux de l'adhésion (0 : prêt gratuit) ; vide : les frais de l'adhésion."),
    )
    deposit = models.DecimalField(
        _("caution (€)"),
        max_digits=7,
        decimal_places=2,
        null=True,
        blank=True,
        help_text=_("Reçue au prêt, rendue au retour du jeu ; vide : pas de caution."),
    )
    loan_quota = models.PositiveSmallIntegerField(
        _("exemplaires de ce type par famille"),
        null=True,
        blank=True,
        help_text=_("En plus du maximum de l'adhésion ; vide : seul le maximum de l'adhésion compte."),
    )

    objects = ItemKindQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        verbose_name = _("type d'objet")
        verbose_name_plural = _("types d'objet")
        constraints = [
            models.UniqueConstraint(
                fields=["is_default"],
                condition=Q(is_default=True),
                name="catalogue_itemkind_one_default",
                violation_error_message=_("Un seul type peut être celui des nouveaux exemplaires."),
            ),
            models.CheckConstraint(
                condition=Q(loan_period_days__isnull=True) | Q(loan_period_days__gte=1),
                name="catalogue_itemkind_period_positive",
                violation_error_message=_("Un prêt dure au moins un jour."),
            ),
            models.CheckConstraint(
                condition=Q(loan_quota__isnull=True) | Q(loan_quota__gte=1),
                name="catalogue_itemkind_quota_positive",
                violation_error_message=_(
                    "Une famille doit pouvoir emprunter au moins un exemplaire de ce type (vide : sans limite)."
                ),
            ),
            models.CheckConstraint(
                condition=(Q(loan_fee__isnull=True) | Q(loan_fee__gte=0))
                & (Q(deposit__isnull=True) | Q(deposit__gt=0)),
                name="catalogue_itemkind_money_not_negative",
                violation_error_message=_(
                    "Les frais ne peuvent pas être négatifs, et une caution est positive (vide : aucune)."
                ),
            ),
        ]

    def __str__(self) -> str:
        return self.name


def default_item_kind() -> int:
    """The kind of a copy added without one: the kind marked so, else « Jeu » (made if missing)."""
    pk = ItemKind.objects.filter(is_default=True).values_list("pk", flat=True).first()
    if pk is None:
        pk = ItemKind.objects.get_or_create(name=DEFAULT_KIND_NAME, defaults={"is_default": True})[0].pk
    return pk
