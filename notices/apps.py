from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NoticesConfig(AppConfig):
    name = "notices"
    verbose_name = _("Avis aux familles")

    def ready(self) -> None:
        from loans import registry

        from .arrivals import hold_arrived_tell

        registry.register_hold_arrived(hold_arrived_tell)
