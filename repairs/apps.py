from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RepairsConfig(AppConfig):
    name = "repairs"
    verbose_name = _("Réparations")

    def ready(self) -> None:
        # The loans app's desk offers « Envoyer en réparation » on a return and says why a copy in repair
        # cannot be lent, through its registry: it imports nothing of this app.
        from loans import registry

        from .forms import ReturnRepairForm
        from .services import open_repair_detail

        registry.register_return_form(ReturnRepairForm)
        registry.register_status_detail(open_repair_detail)

        from report import registry as report

        from . import report as figures

        report.register_section("reparations", figures.section, order=85)
