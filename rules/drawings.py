"""Drawings of the rules pages: Quarto's pieces, the QR codes of the print aids.

Presentation only: what a piece is comes from the engine (rules/games/quarto.py, one bit per
character), how it looks is drawn here as SVG, in black and white so that it prints.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import segno
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from .games.quarto import CHARACTERS, PIECES

# Each character's two sides, one piece at a time (the engine's labels are plural: « 4 hautes »).
PIECE_WORDS = {
    "height": (_("basse"), _("haute")),
    "shape": (_("carrée"), _("ronde")),
    "colour": (_("claire"), _("foncée")),
    "fill": (_("pleine"), _("creuse")),
}
INK = "#1b1b1b"
PAPER = "#ffffff"
QR_CACHED = 1024  # QR codes each process keeps (qr_svg)


@dataclass(frozen=True)
class Piece:
    """One of Quarto's 16 pieces: its number for the engine, its name and its drawing for people."""

    value: int

    def has(self, slug: str) -> bool:
        character = next(character for character in CHARACTERS if character.slug == slug)
        return bool(self.value & character.bit)

    @property
    def name(self) -> str:
        words = [str(PIECE_WORDS[character.slug][self.has(character.slug)]) for character in CHARACTERS]
        return ", ".join(words).capitalize()

    @property
    def symbol_id(self) -> str:
        return f"quarto-piece-{self.value}"

    def shape(self) -> SafeString:
        """The piece seen from the side: tall or short, round (rounded) or square, dark or light, a
        hole on top when hollow."""
        tall, round_, dark, hollow = (self.has(slug) for slug in ("height", "shape", "colour", "fill"))
        height = 26 if tall else 15
        top = 30 - height
        body_fill, hole_fill = (INK, PAPER) if dark else (PAPER, INK)
        radius = 8 if round_ else 1
        parts = [
            format_html(
                '<rect x="4" y="{}" width="16" height="{}" rx="{}" fill="{}" stroke="{}" stroke-width="1.5"/>',
                top,
                height,
                radius,
                body_fill,
                INK,
            )
        ]
        if hollow:
            if round_:
                parts.append(format_html('<circle cx="12" cy="{}" r="3.5" fill="{}"/>', top + 6, hole_fill))
            else:
                parts.append(
                    format_html('<rect x="8.5" y="{}" width="7" height="7" fill="{}"/>', top + 2.5, hole_fill)
                )
        return mark_safe("".join(parts))  # noqa: S308 - built with format_html from numbers and constants


PIECE_SET = tuple(Piece(value) for value in range(PIECES))


def quarto_sprite() -> SafeString:
    """The 16 pieces as SVG symbols, defined once per page and drawn with `<use href="#quarto-piece-N">`."""
    symbols = format_html_join(
        "",
        '<symbol id="{}" viewBox="0 0 24 32">{}</symbol>',
        ((piece.symbol_id, piece.shape()) for piece in PIECE_SET),
    )
    return format_html(
        '<svg class="sprite" xmlns="http://www.w3.org/2000/svg" width="0" height="0" aria-hidden="true" '
        'focusable="false">{}</svg>',
        symbols,
    )


def piece_icon(piece: Piece, css_class: str = "piece") -> SafeString:
    return format_html(
        '<svg class="{}" viewBox="0 0 24 32" aria-hidden="true" focusable="false"><use href="#{}"/></svg>',
        css_class,
        piece.symbol_id,
    )


@functools.lru_cache(maxsize=QR_CACHED)
def qr_svg(url: str) -> SafeString:
    """A QR code of `url` as inline SVG (segno): black modules on white with the standard quiet zone of
    4 modules, a viewBox so that the page sets its printed size (the aids print it 24 mm wide).

    Choosing the best of the eight masks is most of a print aid's time: each process keeps the last
    QR_CACHED codes it drew (a few kilobytes each), so a title's aids printed again draw none."""
    code = segno.make(url, error="m")
    svg = code.svg_inline(scale=1, border=4, dark="#000", light="#fff", omitsize=True)
    return mark_safe(svg.replace("<svg ", '<svg role="img" aria-label="QR code" ', 1))  # noqa: S308
