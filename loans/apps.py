from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LoansConfig(AppConfig):
    name = "loans"
    verbose_name = _("Prêts")

    def ready(self) -> None:
        from catalogue import registry

        from .circulation import LoansCirculation

        registry.register_circulation(LoansCirculation())

        from .playable import game_playable_store, playable_notes

        registry.register_playability(playable_notes)
        registry.register_pieces_changed(game_playable_store)

        from report import registry as report

        from . import report as figures

        report.register_section("familles", figures.served_section, order=10)
        report.register_section("prets", figures.loans_section, order=20)
        report.register_section("adherents", figures.members_section, order=70)
        report.register_served(figures.borrowers_label, figures.borrowers)
