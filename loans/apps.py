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
