"""The MediaWiki subset of the rules pages: safe HTML, the constructs our pages and seed 003 use, sections."""

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.pages.markup import SectionKind, section_kind, split_sections, to_html

SEED_003 = Path(__file__).resolve().parent.parent / "fixtures" / "seeds" / "003_92865e5214de13d9.txt"


def test_headings_paragraphs_bold_and_italic():
    html = to_html(
        "== But du jeu ==\nGagner '''le plus''' de ''points''.\nSur deux lignes.\n\nAutre paragraphe."
    )
    assert html == (
        "<h2>But du jeu</h2>\n<p>Gagner <b>le plus</b> de <i>points</i>. Sur deux lignes.</p>\n<p>Autre paragraphe.</p>"
    )


def test_sub_headings_keep_their_level_below_the_page_title():
    assert to_html("=== Pour deux ===") == "<h3>Pour deux</h3>"
    assert to_html("====Réseaux====") == "<h4>Réseaux</h4>"
    # A level-1 heading (« = Martian Dice = ») never competes with the page's <h1>.
    assert to_html("= Martian Dice =") == "<h2>Martian Dice</h2>"


def test_an_apostrophe_before_bold_stays_an_apostrophe():
    # Railroad Ink: « qu''''une seule Route spéciale par tour''' »
    assert to_html("qu''''une seule Route''' par tour") == "<p>qu'<b>une seule Route</b> par tour</p>"


def test_bold_italic_and_unclosed_markup_still_give_well_formed_html():
    assert to_html("'''''1. Sélection'''''") == "<p><b><i>1. Sélection</i></b></p>"
    assert to_html("''ouvert sans fin") == "<p><i>ouvert sans fin</i></p>"


def test_nested_bullets_and_numbered_lists():
    html = to_html("* un\n** un-un\n** un-deux\n* deux\n# premier\n# second")
    compact = re.sub(r"\s+", "", html)
    assert compact == (
        "<ul><li>un<ul><li>un-un</li><li>un-deux</li></ul></li><li>deux</li></ul>"
        "<ol><li>premier</li><li>second</li></ol>"
    )


def test_a_list_starting_deeper_gets_an_item_to_hold_it():
    assert re.sub(r"\s+", "", to_html("** profond")) == "<ul><li><ul><li>profond</li></ul></li></ul>"


def test_wikitable_with_caption_header_cells_and_double_bars():
    source = '{| class="wikitable"\n|+Valeur\n! Sorties !! Points\n|-\n| 2 || 4\n|-\n| 12 || 45\n|}'
    assert to_html(source) == (
        '<div class="table-scroll"><table class="wikitable"><caption>Valeur</caption><tbody>'
        "<tr><th>Sorties</th><th>Points</th></tr><tr><td>2</td><td>4</td></tr>"
        "<tr><td>12</td><td>45</td></tr></tbody></table></div>"
    )


def test_cell_attributes_are_dropped_but_scope_and_spans_kept():
    source = (
        '{| class="wikitable" style="border: 1px"\n|-\n! scope="row" style="width: 50pt;" | Pts\n'
        '| style="text-align: center;" | 2|3\n| colspan="2" onclick="x()" | large\n|}'
    )
    html = to_html(source)
    assert '<th scope="row">Pts</th>' in html
    # K2's « 2|3 » after the attributes is the cell's text, pipe included.
    assert "<td>2|3</td>" in html
    assert '<td colspan="2">large</td>' in html
    assert "style" not in html and "onclick" not in html


def test_external_and_internal_links():
    html = to_html("[https://www.trictrac.net/jeu TricTrac] et [[Tips_thebuilders]] et [[Page|le libellé]]")
    assert (
        '<a href="https://www.trictrac.net/jeu" rel="nofollow noopener" class="external">TricTrac</a>' in html
    )
    assert '<span class="wiki-link">Tips thebuilders</span>' in html
    assert '<span class="wiki-link">le libellé</span>' in html


ALLOWED_TAGS = {"p", "b", "i", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "a", "span", "div", "table"}
ALLOWED_TAGS |= {"tbody", "tr", "td", "th", "caption", "hr", "br"}
ALLOWED_ATTRIBUTES = {"href", "rel", "class", "scope", "colspan", "rowspan"}


class TagCollector(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def tags_of(html):
    collector = TagCollector()
    collector.feed(html)
    return collector.tags


@pytest.mark.parametrize(
    "source",
    [
        "<script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
        "[javascript:alert(1) cliquez]",
        '[https://example.org/" onmouseover="alert(1) x]',
        "[https://example.org/x onmouseover=alert(1)]",
        "'''<b onclick=x>'''",
        '{|\n| onclick="alert(1)" | cellule\n|}',
        '{|\n! scope="row\' onclick=alert(1)" | x\n|}',
        "== <i>titre</i> ==",
        "<ol>\n<li onclick=x>item</li>\n</ol>",
    ],
)
def test_nothing_from_the_text_becomes_a_tag_or_attribute(source):
    for tag, attributes in tags_of(to_html(source)):
        assert tag in ALLOWED_TAGS
        assert set(attributes) <= ALLOWED_ATTRIBUTES
        assert attributes.get("href", "https://").startswith("https://")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab<>\"'&=*#|!{}[]-:/ \nhttps.\\")), max_size=120))
def test_any_text_renders_to_balanced_html_without_raw_angle_brackets(source):
    html = to_html(source)
    stripped = re.sub(
        r"</?(p|b|i|h[2-6]|ul|ol|li|a|span|div|table|tbody|tr|td|th|caption|hr|br)(\s[^<>]*)?>", "", html
    )
    assert "<" not in stripped and ">" not in stripped
    for tag in ("b", "i", "p", "ul", "ol", "li", "table", "tr", "td", "th"):
        assert len(re.findall(rf"<{tag}[ >]", html)) == html.count(f"</{tag}>"), (tag, html)


def test_html_entities_are_kept_and_a_lone_ampersand_is_escaped():
    assert to_html("A&nbsp;B & C") == "<p>A&nbsp;B &amp; C</p>"


def test_magic_words_disappear():
    assert to_html("__NOTOC__\n== Principe ==") == "<h2>Principe</h2>"


def test_html_lists_of_seed_003_hold_their_tables():
    # K2's « Répartition des Cartes »: <ol><li>…</li> then a table, three times.
    source = "<ol>\n<li>Déplacement</li>\n\n{|\n| 3 || 2\n|}\n\n<li>Cordes</li>\n</ol>"
    html = re.sub(r"\s+", "", to_html(source))
    assert html == (
        '<ol><li>Déplacement<divclass="table-scroll"><tableclass="wikitable"><tbody><tr><td>3</td><td>2</td>'
        "</tr></tbody></table></div></li><li>Cordes</li></ol>"
    )


@pytest.mark.parametrize(
    ("title", "kind"),
    [
        ("But du jeu", SectionKind.GOAL),
        ("But du Jeu", SectionKind.GOAL),
        ("MATÉRIEL", SectionKind.MATERIAL),
        ("Materiel", SectionKind.MATERIAL),
        ("Mise en place", SectionKind.SETUP),
        ("PRÉPARATION", SectionKind.SETUP),
        ("Déroulement", SectionKind.PLAY),
        ("Déroulement du jeu", SectionKind.PLAY),
        ("Fin de partie", SectionKind.END),
        ("Fin de la partie", SectionKind.END),
        ("Décompte", SectionKind.SCORING),
        ("Décompte des points", SectionKind.SCORING),
        ("Variantes", SectionKind.VARIANTS),
        ("VARIANTE", SectionKind.VARIANTS),
        ("Précisions", SectionKind.FAQ),
        ("Précisions / FAQ", SectionKind.FAQ),
        ("FAQ", SectionKind.FAQ),
        ("Liens", SectionKind.OTHER),
        ("Butin", SectionKind.OTHER),
    ],
)
def test_section_kind_is_recognised_from_the_title(title, kind):
    assert section_kind(title) == kind


def test_sections_split_at_level_two_headings_with_sub_headings_inside():
    sections = split_sections(
        "Intro.\n== But du jeu ==\nGagner.\n== Décompte ==\n=== Fin ===\nCompter.\n== Liens ==\n* [https://a.org A]"
    )
    assert [(s.kind, s.title) for s in sections] == [
        ("other", ""),
        ("goal", "But du jeu"),
        ("scoring", "Décompte"),
        ("other", "Liens"),
    ]
    assert sections[2].body_html == "<h3>Fin</h3>\n<p>Compter.</p>"
    assert [s.anchor for s in sections] == ["introduction", "but-du-jeu", "decompte", "liens"]


def test_section_titles_are_plain_text():
    (section,) = split_sections("== '''Score''' [[final]] ==\ntexte")
    assert section.title == "Score final"
    assert section.kind == SectionKind.SCORING


def test_seed_003_tables_become_real_tables():
    text = SEED_003.read_text(encoding="utf-8")
    railroad = text[text.index("Gamehelprailroadink") : text.index("Gamehelpluxor")]
    luxor = text[text.index("Gamehelpluxor") : text.index("Gamehelpk2")]
    railroad_html = to_html(railroad)
    assert "<caption>Valeur d'un Réseau</caption>" in railroad_html
    assert "<td>Nombre de Sorties</td><td>0</td>" in railroad_html
    assert "<td>40</td><td>45</td></tr>" in railroad_html
    luxor_html = to_html(luxor)
    assert "<caption>Série de trésors</caption>" in luxor_html
    assert "<td>8+</td></tr><tr><td>Points</td><td>3</td><td>7</td>" in luxor_html
    assert "<ol>\n<li>Positions finales des aventuriers" in luxor_html


def test_the_whole_seed_003_renders_with_balanced_tags():
    html = to_html(SEED_003.read_text(encoding="utf-8"))
    for tag in ("p", "ul", "ol", "li", "table", "tr", "td", "th", "b", "i", "h2", "h3", "h4"):
        assert len(re.findall(rf"<{tag}[ >]", html)) == html.count(f"</{tag}>"), tag
    assert "&lt;ol&gt;" not in html and "&lt;li&gt;" not in html
    assert '<a href="https://www.gigamic.com/files/catalog/products/rules/rule_fr_marrakech-web.pdf"' in html
