from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LudobusConfig(AppConfig):
    name = "ludobus"
    verbose_name = _("Ludobus (comptoir hors ligne)")
