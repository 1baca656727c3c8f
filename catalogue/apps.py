from django.apps import AppConfig
from django.db import connections
from django.utils.translation import gettext_lazy as _


class CatalogueConfig(AppConfig):
    name = "catalogue"
    verbose_name = _("Catalogue")

    def ready(self) -> None:
        from django.db.models.signals import post_migrate
        from PIL import Image

        from .pictures import PILLOW_MAX_IMAGE_PIXELS
        from .search.models import empty_after_a_flush

        post_migrate.connect(empty_after_a_flush, sender=self)
        post_migrate.connect(_default_kind_after_a_flush, sender=self)

        # Pillow refuses to open a picture over twice this (DecompressionBombError), wherever it is
        # opened: the box pictures' upload, and sorl-thumbnail on a page (catalogue/pictures.py).
        Image.MAX_IMAGE_PIXELS = PILLOW_MAX_IMAGE_PIXELS


def _default_kind_after_a_flush(sender, using: str, **kwargs) -> None:
    """The default kind of item (« Jeu ») that migration 0022 made, made again after a flush (as Django
    makes its content types again), so that an emptied database lists it like a migrated one."""
    from .models import ItemKind
    from .models.kinds import default_item_kind

    if ItemKind._meta.db_table in connections[using].introspection.table_names():
        default_item_kind()
