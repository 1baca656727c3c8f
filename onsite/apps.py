from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OnsiteConfig(AppConfig):
    name = "onsite"
    verbose_name = _("Jeu sur place")

    def ready(self) -> None:
        from catalogue import registry

        from .models import at_table, at_table_label

        registry.register_elsewhere(at_table, at_table_label)

        from report import registry as report

        from . import report as figures

        report.register_section("sur-place", figures.section, order=30)
        report.register_served(figures.visitors_label, figures.visitors)
