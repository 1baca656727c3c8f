"""The catalogue: notices (games), their pieces and their copies, as PMB records them."""

from ..search.models import SearchPosting, SearchWord
from .copies import MAX_TABLE, BarcodeSequence, Copy, CopyQuerySet, SpreadsheetImport
from .games import (
    DOCUMENT_SIGNATURES,
    Authorship,
    Component,
    Document,
    Game,
    GameQuerySet,
    PublisherCredit,
    document_upload_to,
    game_image_upload_to,
    validate_document_file,
    validate_game_image,
)
from .kinds import DEFAULT_KIND_NAME, ItemKind, ItemKindQuerySet, default_item_kind
from .names import Author, Category, CategoryQuerySet, Language, Location, Publisher, Tag

__all__ = [
    "DEFAULT_KIND_NAME",
    "ItemKind",
    "ItemKindQuerySet",
    "default_item_kind",
    "DOCUMENT_SIGNATURES",
    "MAX_TABLE",
    "Author",
    "Authorship",
    "BarcodeSequence",
    "Category",
    "CategoryQuerySet",
    "Component",
    "Copy",
    "CopyQuerySet",
    "Document",
    "Game",
    "GameQuerySet",
    "Language",
    "Location",
    "Publisher",
    "PublisherCredit",
    "SearchPosting",
    "SearchWord",
    "SpreadsheetImport",
    "Tag",
    "document_upload_to",
    "game_image_upload_to",
    "validate_document_file",
    "validate_game_image",
]
