"""A desk form is acted on once: each form the site renders carries a one-time token (a UUID), and
the first post of it is recorded here, under the token's uniqueness. A second post of the same form
(a double click, a page sent again, a slow connection) finds the token used and gets the first
post's answer instead of a second payment, receipt or till closure."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Submission(models.Model):
    """A form posted once: its token, who posted it, when, and where its answer led."""

    token = models.UUIDField(_("jeton"), primary_key=True)
    posted_at = models.DateTimeField(_("envoyé le"), default=timezone.now)
    posted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("par")
    )
    # The page the first post was sent on to (a receipt, the family's page, the till closure).
    answer = models.CharField(_("réponse"), max_length=300, blank=True)

    class Meta:
        ordering = ["-posted_at"]
        verbose_name = _("formulaire envoyé")
        verbose_name_plural = _("formulaires envoyés")

    def __str__(self) -> str:
        return f"{self.token} → {self.answer or '…'}"
