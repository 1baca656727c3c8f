from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OnceConfig(AppConfig):
    name = "once"
    verbose_name = _("Formulaires envoyés")
