from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class KitsConfig(AppConfig):
    name = "kits"
    verbose_name = _("Malles")

    def ready(self) -> None:
        from catalogue import registry

        from .models import reserved_for_kit, reserved_for_kit_label

        # A copy in a kit stays in its kit: not available alone, never set aside for a hold, refused
        # by the desk when scanned alone, but at hand for a repair (catalogue/registry.py, « Elsewhere »).
        registry.register_elsewhere(reserved_for_kit, reserved_for_kit_label, at_hand=True)

        from loans import registry as desk

        from .views import desk_barcode_page

        # A kit's barcode scanned in the desk's boxes opens the kit (to lend it) or its return.
        desk.register_desk_barcode(desk_barcode_page)
