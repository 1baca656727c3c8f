from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CatalogueConfig(AppConfig):
    name = "catalogue"
    verbose_name = _("Catalogue")

    def ready(self) -> None:
        from PIL import Image

        from .pictures import PILLOW_MAX_IMAGE_PIXELS

        # Pillow refuses to open a picture over twice this (DecompressionBombError), wherever it is
        # opened: the box pictures' upload, and sorl-thumbnail on a page (catalogue/pictures.py).
        Image.MAX_IMAGE_PIXELS = PILLOW_MAX_IMAGE_PIXELS
