from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RulesConfig(AppConfig):
    name = "rules"
    verbose_name = _("Règles des jeux")

    def ready(self) -> None:
        from catalogue import registry

        from .pages.generate import catalogued
        from .pieces import piece_keys
        from .services import notice_links

        registry.register_notice_links(notice_links)
        registry.register_piece_keys(piece_keys)
        registry.register_catalogued(catalogued)
