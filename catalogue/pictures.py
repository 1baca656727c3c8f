"""A box picture as the site keeps it: its pixels bounded, its metadata gone, its size that of the pages.

A PNG of 12,000 × 12,000 pixels weighs a few hundred kilobytes and takes hundreds of megabytes once
decoded: the pixel count is read from the file's header, before any decoding, and refused over
MAX_PIXELS. Pillow's own guard (`Image.MAX_IMAGE_PIXELS`, set in CatalogueConfig.ready()) refuses the
same pictures wherever one is opened, so a picture stored before this limit, or by another way in,
costs its header's read when sorl-thumbnail tries it on a page (the page shows the placeholder).

What is kept is re-saved: no EXIF (a phone's photo says where and when it was taken), turned upright
as its EXIF said, and at most MAX_SIDE pixels on its long side, so that every thumbnail made from it
(on saving, or again after `thumbnail clear`) is cheap.
"""

import io

from django import forms
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils.translation import gettext_lazy as _
from PIL import Image, ImageOps, UnidentifiedImageError

MAX_PIXELS = 25_000_000  # a 6,000 × 4,000 photo; Pillow refuses above twice its MAX_IMAGE_PIXELS
PILLOW_MAX_IMAGE_PIXELS = MAX_PIXELS // 2
MAX_SIDE = 1200  # the pages show 80 and 160 pixels (twice that on a dense screen)
TOO_LARGE = _(
    "Cette photo compte %(found)s mégapixels : au plus %(limit)s, par exemple 6000 × 4000. "
    "Réduisez-la avant de l'envoyer."
)
NOT_A_PICTURE = _("Ce fichier n'est pas une image lisible.")
SAVE_OPTIONS = {"JPEG": {"quality": 90}, "WEBP": {"quality": 90}, "PNG": {"optimize": True}}


def _too_large(pixels: int) -> ValidationError:
    return ValidationError(
        TOO_LARGE,
        code="image_too_large",
        params={"found": round(pixels / 1_000_000), "limit": MAX_PIXELS // 1_000_000},
    )


def _bomb_pixels(error: Exception) -> int:
    """The pixel count Pillow's refusal gives ("Image size (144000000 pixels) exceeds limit…")."""
    words = str(error).replace("(", " ").split()
    return next((int(word) for word in words if word.isdigit()), MAX_PIXELS + 1)


def open_bounded(file) -> Image.Image:
    """The picture, opened (its header read, nothing decoded); ValidationError if over MAX_PIXELS."""
    file.seek(0)
    try:
        image = Image.open(file)
    except Image.DecompressionBombError as error:
        raise _too_large(_bomb_pixels(error)) from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        raise ValidationError(NOT_A_PICTURE, code="invalid_image") from None
    if image.width * image.height > MAX_PIXELS:
        raise _too_large(image.width * image.height)
    return image


def validate_box_picture(file) -> None:
    """The model's validator: a picture whose header says it is over MAX_PIXELS is refused."""
    open_bounded(file)
    file.seek(0)


def resaved(file) -> SimpleUploadedFile:
    """The picture without its metadata, upright, at most MAX_SIDE pixels on its long side, same format."""
    image = open_bounded(file)
    kind = image.format
    if kind == "JPEG":
        image.draft("RGB", (MAX_SIDE, MAX_SIDE))  # decoded at 1/2, 1/4 or 1/8 of its size directly
    image = ImageOps.exif_transpose(image)
    image.thumbnail((MAX_SIDE, MAX_SIDE))
    if kind == "WEBP" and image.mode not in ("RGB", "RGBA"):
        image = image.convert("RGBA")
    out = io.BytesIO()
    # Nothing of `image.info` is passed on: no EXIF, XMP or text chunks, only the pixels (and the
    # colour profile, without which the colours would shift).
    image.save(out, format=kind, icc_profile=image.info.get("icc_profile"), **SAVE_OPTIONS.get(kind, {}))
    return SimpleUploadedFile(file.name, out.getvalue(), content_type=Image.MIME.get(kind, ""))


class BoxPictureField(forms.ImageField):
    """Django's image field, saying why a picture is refused for its size, and keeping it re-saved."""

    def to_python(self, data):
        try:
            upload = super().to_python(data)
        except ValidationError as error:
            if isinstance(error.__cause__, Image.DecompressionBombError):
                raise _too_large(_bomb_pixels(error.__cause__)) from None
            raise
        return None if upload is None else resaved(upload)
