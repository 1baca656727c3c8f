"""When each site of the ludothèque is open: hours per weekday, and closures (holidays, summer).

The calendar itself (is a site open on a day, its next opening day, its next openings) is read
through `opening.schedule`, which other apps call; this module only stores it.
"""

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


class Weekday(models.IntegerChoices):
    """Python's numbering (`date.weekday()`): Monday is 0."""

    MONDAY = 0, _("lundi")
    TUESDAY = 1, _("mardi")
    WEDNESDAY = 2, _("mercredi")
    THURSDAY = 3, _("jeudi")
    FRIDAY = 4, _("vendredi")
    SATURDAY = 5, _("samedi")
    SUNDAY = 6, _("dimanche")


class OpeningHours(models.Model):
    """One opening of a site on a weekday (a day open morning and afternoon has two)."""

    location = models.ForeignKey(
        "catalogue.Location",
        on_delete=models.CASCADE,
        related_name="opening_hours",
        verbose_name=_("localisation"),
    )
    weekday = models.PositiveSmallIntegerField(_("jour"), choices=Weekday)
    opens_at = models.TimeField(_("ouverture"))
    closes_at = models.TimeField(_("fermeture"))

    class Meta:
        ordering = ["location", "weekday", "opens_at"]
        verbose_name = _("horaire d'ouverture")
        verbose_name_plural = _("horaires d'ouverture")
        constraints = [
            models.CheckConstraint(
                condition=Q(opens_at__lt=F("closes_at")),
                name="opening_openinghours_opens_before_closing",
                violation_error_message=_("L'heure d'ouverture doit précéder l'heure de fermeture."),
            ),
            models.UniqueConstraint(
                fields=["location", "weekday", "opens_at"],
                name="opening_openinghours_unique_location_weekday_opens_at",
                violation_error_message=_("Ce site a déjà une ouverture à cette heure ce jour-là."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.location} : {self.get_weekday_display()} {self.opens_at:%H:%M}–{self.closes_at:%H:%M}"


class Closure(models.Model):
    """Days a site (or every site) stays closed whatever its hours: holidays, summer, a public holiday."""

    location = models.ForeignKey(
        "catalogue.Location",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="closures",
        verbose_name=_("localisation"),
        help_text=_("Vide : tous les sites sont fermés."),
    )
    first_day = models.DateField(_("du"))
    last_day = models.DateField(_("au (inclus)"))
    reason = models.CharField(_("motif"), max_length=120, help_text=_("Par exemple « Vacances de Noël »."))

    class Meta:
        ordering = ["first_day", "location"]
        verbose_name = _("fermeture")
        verbose_name_plural = _("fermetures")
        constraints = [
            models.CheckConstraint(
                condition=Q(first_day__lte=F("last_day")),
                name="opening_closure_first_day_lte_last_day",
                violation_error_message=_("Une fermeture ne peut pas finir avant d'avoir commencé."),
            ),
        ]

    def __str__(self) -> str:
        where = self.location.name if self.location_id else _("tous les sites")
        if self.first_day == self.last_day:
            return f"{where} : {self.reason} ({self.first_day:%d/%m/%Y})"
        return f"{where} : {self.reason} ({self.first_day:%d/%m/%Y} – {self.last_day:%d/%m/%Y})"
