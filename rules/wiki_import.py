"""The history of the Board Game Arena French wiki's game-help pages (seed 003), as rules page revisions.

The seed is one contributor's list of contributions, newest first. Each contribution reads:

    Gamehelpalhambra                ← the wiki page's title
    2020-11-25T11:20:43Z            ← when it was saved (UTC)
    Bourjn : Ajout de jeux          ← the contributor, « : », the edit summary (possibly empty)
    …the page's MediaWiki text…     ← up to the next contribution

(blank lines between the parts). A contribution to a page of no game (« Aide », the wiki's index of
game-help pages, saved without its text) is read like the others but has no rules page to go to.

Each wiki page goes to the rules page whose slug, without its hyphens, is the title after
« Gamehelp » (`Gamehelpthebuilders` → `the-builders`). Its contributions become that page's first
revisions, oldest first, with their time, summary and contributor's name; the page's structured text
(`fixtures/rules/<slug>.wiki`) then follows as the next revision (`rules.services.rule_pages_load`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from django.db import transaction

from .games import all_games
from .models import Revision, RulePage
from .services import normalise_content

# What an imported revision's `imported_from` says before the wiki page's title.
SOURCE_PREFIX = "wiki BGA (fr) : "
GAME_HELP_PREFIX = "Gamehelp"

TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")


def contributor(line: str) -> tuple[str, str] | None:
    """(name, summary) of « Bourjn : Ajout du coût… » or « Bourjn : » (no summary), else None.

    MediaWiki user names hold no colon: the name is what comes before the first one, then a blank.
    Cut by hand: the expression it replaced (a lazy name, then blanks it could also hold) tried
    every split of a long line of blanks.
    """
    name, colon, summary = line.partition(":")
    if not colon or not name.strip() or "\n" in name or name == name.rstrip():
        return None
    if summary and summary == summary.lstrip():
        return None
    return name.strip(), summary.strip()


@dataclass(frozen=True)
class WikiRevision:
    """One saved state of a wiki page, as the contributions list shows it."""

    title: str
    saved_at: datetime
    contributor: str
    summary: str
    content: str
    line: int  # where the contribution starts in the file (1-based)

    @property
    def source(self) -> str:
        """What the imported revision records as its origin."""
        return SOURCE_PREFIX + self.title


def _next_filled(lines: list[str], start: int) -> int | None:
    """Index of the first non-blank line at or after `start`, or None."""
    for index in range(start, len(lines)):
        if lines[index].strip():
            return index
    return None


def _header_at(lines: list[str], index: int) -> tuple[int, int] | None:
    """(timestamp line, contributor line) when a contribution starts at `index`, else None."""
    if not lines[index].strip() or lines[index] != lines[index].strip():
        return None
    stamp = _next_filled(lines, index + 1)
    if stamp is None or not TIMESTAMP.match(lines[stamp].strip()):
        return None
    contributor_line = _next_filled(lines, stamp + 1)
    if contributor_line is None or contributor(lines[contributor_line].strip()) is None:
        return None
    return stamp, contributor_line


def contributions_parse(text: str) -> list[WikiRevision]:
    """Every contribution of the list, in the file's order (newest first); text before the first is dropped."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    starts: list[tuple[int, int, int]] = []
    index = 0
    while index < len(lines):
        header = _header_at(lines, index)
        if header is None:
            index += 1
            continue
        starts.append((index, *header))
        index = header[1] + 1
    revisions = []
    for position, (start, stamp, contributor_line) in enumerate(starts):
        end = starts[position + 1][0] if position + 1 < len(starts) else len(lines)
        found = contributor(lines[contributor_line].strip())
        assert found is not None  # checked by _header_at
        name, summary = found
        revisions.append(
            WikiRevision(
                title=lines[start].strip(),
                saved_at=datetime.strptime(lines[stamp].strip(), "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC),
                contributor=name,
                summary=summary,
                content="\n".join(lines[contributor_line + 1 : end]).strip("\n"),
                line=start + 1,
            )
        )
    return revisions


def contributions_read(path: Path) -> list[WikiRevision]:
    """Read a contributions file (UTF-8)."""
    return contributions_parse(path.read_text(encoding="utf-8"))


def page_histories(revisions: Iterable[WikiRevision]) -> dict[str, list[WikiRevision]]:
    """The revisions of each wiki page, oldest first; pages in the order they first appear."""
    pages: dict[str, list[WikiRevision]] = {}
    for revision in revisions:
        pages.setdefault(revision.title, []).append(revision)
    return {
        title: sorted(history, key=lambda revision: revision.saved_at) for title, history in pages.items()
    }


def rules_slug_for(title: str, slugs: Iterable[str]) -> str | None:
    """The rules page slug a wiki page title stands for (`Gamehelpthebuilders` → `the-builders`), or None."""
    if not title.startswith(GAME_HELP_PREFIX) or title == GAME_HELP_PREFIX:
        return None
    name = title.removeprefix(GAME_HELP_PREFIX).casefold()
    return next((slug for slug in sorted(slugs) if slug.replace("-", "") == name), None)


# --- writing the revisions ------------------------------------------------------------------------


@dataclass
class HistoryReport:
    imported: dict[str, int] = field(default_factory=dict)  # slug → revisions added
    unchanged: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # the page has revisions of its own: history not added
    unmatched: list[str] = field(default_factory=list)  # wiki titles that are no game's page

    def lines(self) -> list[str]:
        """What happened, one line per page, for the commands' output."""
        out = [f"{slug}: {count} wiki revision(s) imported" for slug, count in self.imported.items()]
        out += [f"{slug}: wiki history already imported" for slug in self.unchanged]
        out += [
            f"{slug}: has revisions of its own before the wiki history, not imported (revisions are never renumbered)"
            for slug in self.kept
        ]
        out += [f"{title}: no rules page for this wiki page, skipped" for title in self.unmatched]
        return out


def wiki_history_import(*, path: Path) -> HistoryReport:
    """Import every game-help page of a contributions file as the first revisions of its rules page.

    Safe to run again: a revision already imported (same wiki page, same time) is not added twice,
    and a page that already has revisions written here is left alone, since the wiki's history
    could only go before them.
    """
    titles = {rules.slug: rules.title for rules in all_games()}
    slugs = set(titles) | set(RulePage.objects.values_list("slug", flat=True))
    report = HistoryReport()
    for wiki_title, history in page_histories(contributions_read(path)).items():
        slug = rules_slug_for(wiki_title, slugs)
        if slug is None:
            report.unmatched.append(wiki_title)
            continue
        added = rule_page_history_import(slug=slug, title=titles.get(slug, slug), history=history)
        if added is None:
            report.kept.append(slug)
        elif added:
            report.imported[slug] = added
        else:
            report.unchanged.append(slug)
    return report


@transaction.atomic
def rule_page_history_import(*, slug: str, title: str, history: list[WikiRevision]) -> int | None:
    """Add a wiki page's revisions (oldest first) to a rules page, creating it if need be.

    Returns how many were added (0: all there already), or None when the page already has revisions
    of its own that the history would have to go before.
    """
    page, _created = RulePage.objects.select_for_update().get_or_create(slug=slug, defaults={"title": title})
    existing = list(page.revisions.order_by("number"))
    done = {(revision.imported_from, revision.created_at) for revision in existing if revision.imported_from}
    missing = [revision for revision in history if (revision.source, revision.saved_at) not in done]
    if not missing:
        return 0
    newest_imported = max(
        (revision.created_at for revision in existing if revision.imported_from), default=None
    )
    if any(not revision.imported_from for revision in existing) or (
        newest_imported is not None and missing[0].saved_at < newest_imported
    ):
        return None
    number = existing[-1].number if existing else 0
    for revision in missing:
        number += 1
        Revision.objects.create(
            page=page,
            number=number,
            author=None,
            author_name=revision.contributor[:150],
            created_at=revision.saved_at,
            summary=revision.summary[:500],
            content=normalise_content(revision.content),
            imported_from=revision.source[:200],
        )
    return len(missing)
