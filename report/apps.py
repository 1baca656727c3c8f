from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReportConfig(AppConfig):
    name = "report"
    verbose_name = _("Rapport annuel")

    def ready(self) -> None:
        from . import collection, registry

        registry.register_section("collection", collection.section, order=90)
