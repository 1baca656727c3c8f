"""Demo catalogue: the seed PMB notices, then the seven games of the BGA help pages and two more
well-known titles (no copies; the rules demo gives these two a declared score sheet).

The BGA games go through the same import as PMB notices, so running this twice changes nothing
(a game is found again by title and first author). Titles are the French editions'; slugs are the
slugified titles (`les-batisseurs-moyen-age`, `railroad-ink`…); the rules pages link by foreign key.

Facts checked with public sources (player counts, ages and minutes as printed on the box of the
edition named); age maximum 99 follows the library's PMB habit for "and up".
- Les Bâtisseurs : Moyen Âge (The Builders: Middle Ages), Frédéric Henry, Bombyx 2013: 2–4, 10+,
  30 min (ubercoolstuff.com product page; BGA forum announcement "a game by Fred Henry published by
  Bombyx").
- Railroad Ink (Deep Blue / Blazing Red editions, the French "Grand Bleu" / "Rouge Ardent" of seed
  003), Hjalmar Hach and Lorenzo Silva, Horrible Games 2018 (the studio since renamed Horrible
  Guild): 1–6, 8+, 20–30 min, recorded as 30 (gamersalliance.com review; ucon-gaming.org).
- Luxor, Rüdiger Dorn, Queen Games 2018: 2–4, 8+, 45 min (spiel-des-jahres.com, nominee 2018;
  opinionatedgamers.com).
- K2, Adam Kałuża, Rebel 2010 (French edition distributed by Iello): 1–5, 10+, 60 min (French
  Wikipedia article "K2 (jeu de société)").
- Alhambra, Dirk Henn, Queen Games 2003: 2–6, 8+, 60 min (boardgamebriefs.com,
  accessiblegames.biz).
- Marrakech, Dominique Ehrhard, Gigamic 2007: 2–4, 20 min; 8+ on the French Gigamic box
  (meepleqc.ca, a French médiathèque's catalogue record) where the table of docs/game-facts.md said 6+.
- Martian Dice, Scott Almes, Tasty Minstrel Games 2011: 2–99, 8+, 10 min (rinuu.com product page;
  meeplegamers.com review: 10–30 min).
- Les Aventuriers du Rail, Alan R. Moon, Days of Wonder 2004: 2–5, 8+, 30–60 min, recorded as 60
  (box; fetedujeu.org, letraindemanu.fr).
- 6 qui prend !, Wolfgang Kramer, Amigo 1994, French edition Gigamic: 2–10, 10+, 45 min
  (ludikamis.fr, mamaneveille.com).
"""

import zlib
from decimal import Decimal
from io import BytesIO
from pathlib import Path

from django.core.files.base import ContentFile
from django.core.management.base import CommandError, OutputWrapper
from django.core.management.color import no_style

from .management.commands.import_pmb import write_pmb_import_report
from .models import BarcodeSequence, Copy, Game, ItemKind, Location
from .pmb import PmbAuthor, PmbCategory, PmbNotice, PmbPublisher
from .services import game_import_from_pmb, games_import_from_pmb_files
from .templatetags.games import make_thumbnails

SEEDS = Path(__file__).resolve().parent.parent / "fixtures" / "seeds"

STRATEGY = PmbCategory(code="A 406", label="jeu de stratégie", family="jeu de règles")
CHANCE = PmbCategory(code="A 407", label="jeu de hasard", family="jeu de règles")


def _notice(title, authors, publisher, players, ages, minutes, category, tags) -> PmbNotice:
    return PmbNotice(
        title=title,
        source="catalogue/demo.py",
        authors=[PmbAuthor(name=name, role="Auteur") for name in authors],
        publishers=[PmbPublisher(name=publisher)],
        players_min=players[0],
        players_max=players[1],
        age_min=ages,
        age_max=99,
        duration_minutes=minutes,
        category=category,
        tags=tags,
    )


DEMO_NOTICES = [
    _notice(
        "Les Bâtisseurs : Moyen Âge",
        ["Frédéric Henry"],
        "Bombyx",
        (2, 4),
        10,
        30,
        STRATEGY,
        ["Gestion", "Cartes"],
    ),
    _notice(
        "Railroad Ink",
        ["Hjalmar Hach", "Lorenzo Silva"],
        "Horrible Games",
        (1, 6),
        8,
        30,
        STRATEGY,
        ["Dés", "Placement"],
    ),
    _notice("Luxor", ["Rüdiger Dorn"], "Queen Games", (2, 4), 8, 45, STRATEGY, ["Parcours", "Collection"]),
    _notice("K2", ["Adam Kałuża"], "Rebel", (1, 5), 10, 60, STRATEGY, ["Parcours", "Gestion"]),
    _notice("Alhambra", ["Dirk Henn"], "Queen Games", (2, 6), 8, 60, STRATEGY, ["Placement", "Economie"]),
    _notice("Marrakech", ["Dominique Ehrhard"], "Gigamic", (2, 4), 8, 20, STRATEGY, ["Placement", "Dés"]),
    _notice(
        "Martian Dice",
        ["Scott Almes"],
        "Tasty Minstrel Games",
        (2, 99),
        8,
        10,
        CHANCE,
        ["Dés", "Prise de risque"],
    ),
    _notice(
        "Les Aventuriers du Rail",
        ["Alan R. Moon"],
        "Days of Wonder",
        (2, 5),
        8,
        60,
        STRATEGY,
        ["Parcours", "Cartes"],
    ),
    _notice("6 qui prend !", ["Wolfgang Kramer"], "Gigamic", (2, 10), 10, 45, CHANCE, ["Cartes"]),
]


def load(*, stdout: OutputWrapper) -> None:
    """Import the seed notices and add the other demo notices; safe to run again."""
    report = games_import_from_pmb_files(paths=sorted(SEEDS.glob("*.txt")))
    write_pmb_import_report(report, stdout=stdout, style=no_style())
    if report.errors:
        raise CommandError(f"{len(report.errors)} seed notice(s) could not be imported.")
    for notice in DEMO_NOTICES:
        result = game_import_from_pmb(notice=notice)
        stdout.write(f"{notice.title} : {result.action}")
    for game in Game.objects.filter(title__in=DEMO_PICTURES, image=""):
        game.image.save(f"{game.slug}.jpg", box_picture(game.title), save=True)
        make_thumbnails(game.image)
        stdout.write(f"{game.title} : photo de la boîte")
    # Where families find the demo's site (the home page's « Devenir membre »); fictional, as the families.
    Location.objects.filter(name=DEMO_SITE["name"], address="").update(**DEMO_SITE)
    # New copies added in the admin without a barcode are numbered LUD000001, LUD000002…
    BarcodeSequence.objects.get_or_create(pk=1, defaults={"prefix": "LUD", "next_number": 1, "digits": 6})
    _kinds(stdout)


# The kinds of item and their loan rules (blank: the membership's; loans/loan_rules.py), and the demo
# copies of each kind other than « Jeu », every seed copy's.
DEMO_KINDS = {
    "Jeu": {},
    "Jouet": {},
    "Grand jeu": {"loan_period_days": 7, "deposit": Decimal("20.00"), "loan_quota": 1},
    "Jeu vidéo": {"loan_fee": Decimal("1.00")},
}
DEMO_KIND_COPIES = [
    # (kind, game, barcode, cote, notes)
    ("Grand jeu", "Quarto", "96001", "QUA-G", "Quarto géant en bois, pour l'extérieur (80 × 80 cm)."),
    ("Jeu vidéo", "Les Aventuriers du Rail", "96002", "AVE-V", "Adaptation pour console de jeu."),
]


def _kinds(stdout: OutputWrapper) -> None:
    for name, rules in DEMO_KINDS.items():
        ItemKind.objects.get_or_create(name=name, defaults=rules)
    location = Location.objects.filter(name=DEMO_SITE["name"]).first()
    for kind, title, barcode, cote, notes in DEMO_KIND_COPIES:
        game = Game.objects.filter(title=title).first()
        if game is None or location is None or Copy.objects.filter(barcode=barcode).exists():
            continue
        Copy.objects.create(
            game=game,
            kind=ItemKind.objects.get(name=kind),
            barcode=barcode,
            cote=cote,
            location=location,
            notes=notes,
        )
        stdout.write(f"{title} : exemplaire {barcode} ({kind})")


DEMO_SITE = {
    "name": "Maison des Enfants",
    "address": "Rue de l'Exemple 12\n1000 Bruxelles",
    "phone": "02 000 00 00",
    "email": "ludotheque@example.org",
}
# The demo games that get a box picture; the others show the placeholder (initials on their category's colour).
DEMO_PICTURES = ["Les colons de Catane", "7 Wonders", "La chasse aux monstres", "Quarto", "Marrakech"]


def box_picture(title: str, size: int = 600) -> ContentFile:
    """A made-up box cover for the demo: a photo-like gradient with some grain, shapes and the title (JPEG)."""
    from PIL import Image, ImageDraw, ImageFont

    seed = zlib.crc32(title.encode())
    hue = seed % 360
    base = Image.new("HSV", (size, size), (hue * 255 // 360, 150, 200)).convert("RGB")
    shade = Image.linear_gradient("L").resize((size, size))
    darker = Image.new("HSV", (size, size), ((hue * 255 // 360 + 20) % 256, 200, 90)).convert("RGB")
    picture = Image.composite(darker, base, shade)
    grain = Image.effect_noise((size, size), 24).convert("RGB")
    picture = Image.blend(picture, grain, 0.12)
    draw = ImageDraw.Draw(picture)
    for n in range(6):
        x, y = (seed >> n) % (size - 160), (seed >> (n + 7)) % (size - 160)
        draw.ellipse((x, y, x + 80 + n * 12, y + 80 + n * 12), outline=(255, 255, 255), width=6)
    draw.rectangle((0, size * 3 // 4, size, size), fill=(255, 250, 240))
    font = ImageFont.load_default(size=size // 12)
    draw.text((size // 20, size * 3 // 4 + size // 16), title, fill=(40, 30, 20), font=font)
    out = BytesIO()
    picture.save(out, "JPEG", quality=85)
    return ContentFile(out.getvalue())
