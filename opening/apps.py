from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OpeningConfig(AppConfig):
    name = "opening"
    verbose_name = _("Ouvertures")
