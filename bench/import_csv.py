"""Time the spreadsheet import of a library moving in: a 10,000-row CSV into an empty catalogue.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ludo_bench_import .venv/bin/python bench/import_csv.py

Writes a CSV in the export's columns (one row per copy: 1–3 copies per game, French titles, 1–2
authors, a publisher, an ESAR category, 1–4 tags, 2–6 pieces, a summary), empties the catalogue of
the database (its name must contain "bench"), then times what a librarian's upload does: reading
the file, the preview (a dry run), the import, then the same file again (preview and import: every
game unchanged). Each step is one call of the code behind the page and `import_catalogue`.
"""

import argparse
import csv
import os
import random
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import (  # noqa: E402 — the search benchmark's vocabulary
    CATEGORIES,
    ROOT,
    SITES,
    TAGS,
    create_database_if_missing,
    invented_word,
    make_title,
)

sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ludotheque.settings")

PIECES = ["plateau de jeu", "cartes", "dés à six faces", "pions en bois", "jetons", "sablier", "règle du jeu"]
PUBLISHERS = [
    "Gigamic",
    "Iello",
    "Asmodee",
    "Haba",
    "Djeco",
    "Ravensburger",
    "Libellud",
    "Blue Orange",
    "Matagot",
]


def write_csv(path: Path, rows: int, seed: int) -> int:
    from catalogue.spreadsheet import HEADER

    rng = random.Random(seed)
    authors = [f"{invented_word(rng)} {invented_word(rng)}" for _ in range(800)]
    written = games = 0
    with path.open("w", encoding="utf-8", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=HEADER, delimiter=";")
        writer.writeheader()
        while written < rows:
            games += 1
            code, label, family = rng.choice(CATEGORIES)
            players_min = rng.randint(1, 3)
            game = {
                "titre": f"{make_title(rng)} {games}",
                "auteurs": " ; ".join(f"{name}, Auteur" for name in rng.sample(authors, rng.randint(1, 2))),
                "editeurs": rng.choice(PUBLISHERS),
                "langues": "Français (fre)",
                "categorie": code,
                "categorie_libelle": label,
                "categorie_famille": family,
                "mots_cles": " ; ".join(rng.sample(TAGS, rng.randint(1, 4))),
                "joueurs_min": players_min,
                "joueurs_max": players_min + rng.randint(0, 5),
                "age_min": rng.choice([3, 4, 5, 6, 7, 8, 10, 12]),
                "age_max": 99,
                "duree": rng.choice([10, 15, 20, 30, 45, 60, 90]),
                "principe": f"Les joueurs explorent {invented_word(rng)} et gagnent des points. " * 3,
                "pieces": "\n".join(
                    f"{rng.randint(1, 60)} × {piece}" for piece in rng.sample(PIECES, rng.randint(2, 6))
                ),
            }
            for _copy in range(min(rng.choice([1, 1, 1, 2, 2, 3]), rows - written)):
                written += 1
                writer.writerow(
                    game
                    | {
                        "code_barres": f"B{written:06d}",
                        "cote": game["titre"][:3].upper(),
                        "section": code,
                        "localisation": rng.choice(SITES),
                        "statut": "on_shelf",
                    }
                )
    return games


def main() -> None:
    parser = argparse.ArgumentParser(description="Time the CSV import of a catalogue into an empty database.")
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--file", default="/tmp/ludotheque-import-bench.csv")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")) or "bench" not in urlsplit(url).path:
        parser.error("set DATABASE_URL to a PostgreSQL database whose name contains 'bench' (it is emptied).")
    create_database_if_missing(url)

    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    from catalogue.importing import games_import, summary
    from catalogue.spreadsheet import decode, read_sheet
    from ludotheque.history import ALLOW_TRUNCATE

    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute(ALLOW_TRUNCATE)  # the ledger's tables, reached by CASCADE, refuse it otherwise
        cursor.execute(
            "TRUNCATE catalogue_game, catalogue_copy, catalogue_author, catalogue_publisher, catalogue_tag, "
            "catalogue_category, catalogue_location, catalogue_language CASCADE"
        )
    path = Path(args.file)
    games = write_csv(path, args.rows, args.seed)
    print(f"{path}: {args.rows} rows, {games} games, {path.stat().st_size / 2**20:.1f} MB")

    def timed(label: str, call):
        started = time.perf_counter()
        result = call()
        print(f"{label:<32} {time.perf_counter() - started:7.2f} s")
        return result

    for run in ("first import", "same file again"):
        print(f"-- {run}")
        sheet = timed("read the file", lambda: read_sheet(decode(path.read_bytes()), source=path.name))
        notices = sheet.notices
        report = timed(
            "preview (dry run)", lambda notices=notices: games_import(notices=notices, dry_run=True)
        )
        print(f"{'':<32} {summary(report, sheet)}")
        report = timed("import", lambda notices=notices: games_import(notices=notices))
        print(f"{'':<32} {summary(report, sheet)}")


if __name__ == "__main__":
    main()
