"""Every catalogued title gets a rules page, made from what its notice knows (rules/pages/notice_text.py).

`rule_pages_generate()` writes them in batches (`bulk_create`), for the games it is given (an import,
the admin) or for every game without a page (`manage.py generate_rule_pages`). It is idempotent: a
game that has a page gets none more, and a page is written again only while it is still the
generator's own (`RulePage.generated` and a current revision by the site): a librarian's text is
never replaced. The catalogue calls it through `catalogue.registry.catalogued()` (rules/apps.py).

A title with coded rules (`rules/games/`) gets its page from `load_rule_pages`, by the notice's
title in its page file: the generator links that page to the notice, or leaves the notice to it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache

from django.db import transaction
from django.db.models import Prefetch

from catalogue.models import Authorship, Game
from rules.games import all_games
from rules.models import LOADER_AUTHOR, Revision, RulePage, rendered_sections

from .notice_text import NoticeFacts, generated_page
from .services import WIKI_DIR, normalise_content, wiki_file_read

BATCH = 1000
SLUG_MAX_LENGTH = 100  # RulePage.slug
FIRST_SUMMARY = "Page générée depuis la notice du catalogue (faits, pièces et texte des règles de la notice)."
REFRESH_SUMMARY = "Page générée à nouveau : la notice du catalogue a changé."


@dataclass
class GenerateReport:
    created: int = 0
    refreshed: int = 0
    linked: list[str] = field(default_factory=list)  # notices given their coded game's page

    def line(self) -> str:
        return (
            f"{self.created} page(s) de règles créée(s), {self.refreshed} mise(s) à jour, "
            f"{len(self.linked)} notice(s) reliée(s) à leur page programmée."
        )


@cache
def coded_pages_by_title() -> dict[str, str]:
    """The coded games' page slugs by the casefolded title of the notice their page file names."""
    found = {rules.title.casefold(): rules.slug for rules in all_games()}
    for path in sorted(WIKI_DIR.glob("*.wiki")) if WIKI_DIR.exists() else []:
        try:
            wiki = wiki_file_read(path)
        except (ValueError, UnicodeDecodeError):
            continue
        if wiki.notice:
            found[wiki.notice.casefold()] = wiki.slug
    return found


def notice_facts(game: Game) -> NoticeFacts:
    """What the notice says, read from a game fetched `_with_notice()` (credits and pieces prefetched)."""
    return NoticeFacts(
        players_min=game.players_min,
        players_max=game.players_max,
        age_min=game.age_min,
        age_max=game.age_max,
        duration_minutes=game.duration_minutes,
        authors=tuple((credit.author.name, credit.get_role_display()) for credit in game.authorships.all()),
        publishers=tuple(credit.publisher.name for credit in game.publisher_credits.all()),
        pieces=tuple((piece.quantity, piece.label) for piece in game.components.all()),
        summary=game.summary,
        texts=tuple(text for text in (game.rules_summary, game.contents) if text.strip()),
    )


def _with_notice(games) -> Iterable[Game]:
    return games.prefetch_related(
        Prefetch("authorships", queryset=Authorship.objects.select_related("author")),
        "publisher_credits__publisher",
        "components",
    ).order_by("pk")


def page_text(game: Game) -> str:
    return normalise_content(generated_page(notice_facts(game)))


def _batches(game_ids: list[int] | None) -> Iterator[list[Game]]:
    """Games without a page, a batch at a time: all of them, or those among `game_ids`."""
    if game_ids is not None:
        for start in range(0, len(game_ids), BATCH):
            yield list(_with_notice(Game.objects.filter(pk__in=game_ids[start : start + BATCH])))
        return
    last = 0
    while True:
        batch = list(_with_notice(Game.objects.filter(pk__gt=last, rules_page__isnull=True))[:BATCH])
        if not batch:
            return
        yield batch
        last = batch[-1].pk


def rule_pages_generate(*, game_ids: Iterable[int] | None = None) -> GenerateReport:
    """Give these games (None: every game) their generated page; refresh the pages still generated."""
    report = GenerateReport()
    wanted = sorted(set(game_ids)) if game_ids is not None else None
    for games in _batches(wanted):
        with transaction.atomic():
            _generate_batch(games, report, refresh=wanted is not None)
    return report


def _generate_batch(games: list[Game], report: GenerateReport, *, refresh: bool) -> None:
    pages = {page.game_id: page for page in RulePage.objects.filter(game__in=games)}
    coded = coded_pages_by_title()
    new = []
    for game in games:
        if game.pk in pages:
            continue
        coded_slug = coded.get(game.title.casefold())
        if coded_slug is not None:
            # Its page is the coded game's: linked here if it waits for its notice, else by load_rule_pages.
            if RulePage.objects.filter(slug=coded_slug, game__isnull=True).update(game=game):
                report.linked.append(game.title)
            continue
        new.append(game)
    _create_pages(new, report)
    if refresh:
        for game in games:
            page = pages.get(game.pk)
            if page is not None and page.generated:
                report.refreshed += _refresh(page, game)


def _create_pages(games: list[Game], report: GenerateReport) -> None:
    """A page and its first revision per game, in two inserts; a page another process made meanwhile is kept."""
    if not games:
        return
    slugs = _free_slugs(games)
    RulePage.objects.bulk_create(
        [RulePage(slug=slugs[game.pk], title=game.title[:200], game=game, generated=True) for game in games],
        ignore_conflicts=True,
    )
    created = RulePage.objects.filter(game__in=games, revisions__isnull=True).values_list("pk", "game_id")
    by_game = {game.pk: game for game in games}
    revisions = []
    for page_id, game_id in created:
        content = page_text(by_game[game_id])
        revisions.append(
            Revision(
                page_id=page_id,
                number=1,
                author_name=LOADER_AUTHOR,
                summary=FIRST_SUMMARY,
                content=content,
                sections=rendered_sections(content),
            )
        )
    Revision.objects.bulk_create(revisions, ignore_conflicts=True)
    report.created += len(revisions)


def _free_slugs(games: list[Game]) -> dict[int, str]:
    """Each game's page slug: its own, unless a page or a coded game has it (then « -2 », « -3 »…)."""
    bases = {game.pk: (game.slug[: SLUG_MAX_LENGTH - 6].strip("-") or "jeu") for game in games}
    taken = {rules.slug for rules in all_games()}
    taken |= set(RulePage.objects.filter(slug__in=list(bases.values())).values_list("slug", flat=True))
    slugs = {}
    for game in games:
        base = bases[game.pk]
        if base in taken:  # rare: its numbered neighbours, in one query
            taken |= set(RulePage.objects.filter(slug__startswith=f"{base}-").values_list("slug", flat=True))
        slug, suffix = base, 2
        while slug in taken:
            slug, suffix = f"{base}-{suffix}", suffix + 1
        taken.add(slug)
        slugs[game.pk] = slug
    return slugs


def _refresh(page: RulePage, game: Game) -> int:
    """Write the notice's page again if it changed, while the current text is still the generator's."""
    locked = RulePage.objects.select_for_update().get(pk=page.pk)
    current = locked.revisions.order_by("-number").first()
    if not locked.generated or current is None or not current.by_loader:
        return 0
    if locked.title != game.title[:200]:  # the notice's title corrected in the admin
        locked.title = game.title[:200]
        locked.save(update_fields=["title"])
    content = page_text(game)
    if content == current.content:
        return 0
    Revision.objects.create(
        page=locked,
        number=current.number + 1,
        author_name=LOADER_AUTHOR,
        summary=REFRESH_SUMMARY,
        content=content,
    )
    return 1


def rule_page_for(game: Game) -> RulePage | None:
    """The game's rules page, made now if it has none yet (a game written without telling the rules app)."""
    rule_pages_generate(game_ids=[game.pk])
    return RulePage.objects.filter(game=game).first()


def catalogued(game_ids: list[int]) -> None:
    """What the catalogue calls after an import or an admin save (catalogue.registry.catalogued)."""
    rule_pages_generate(game_ids=game_ids)
