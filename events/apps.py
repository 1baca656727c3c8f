from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EventsConfig(AppConfig):
    name = "events"
    verbose_name = _("Animations")

    def ready(self) -> None:
        from report import registry as report

        from . import report as figures

        report.register_section("animations", figures.section, order=40)
        report.register_served(figures.attendees_label, figures.attendees)
