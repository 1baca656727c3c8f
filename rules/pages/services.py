"""Rules pages: saving a page's next revision, loading the pages of fixtures/rules/<slug>.wiki."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from catalogue.models import Game
from rules.games import all_games
from rules.models import LOADER_AUTHOR, Revision, RulePage

from .bounds import check_revision_size

WIKI_DIR = Path(settings.BASE_DIR) / "fixtures" / "rules"
# The BGA wiki's history of the game-help pages, imported before the page files (wiki_import.py).
WIKI_HISTORY = Path(settings.BASE_DIR) / "fixtures" / "seeds" / "003_92865e5214de13d9.txt"


# --- editing ---------------------------------------------------------------------------------------


def author_name_for(user) -> str:
    """The name a revision keeps for its author, even if the account goes away (no user: the loader)."""
    if user is None:
        return LOADER_AUTHOR
    return (user.get_full_name() or user.get_username())[:150]


@transaction.atomic
def revision_create(
    *, page: RulePage, content: str, summary: str, author, base_number: int | None
) -> Revision:
    """Save the page's next revision; refuse if someone saved since `base_number` was read, or if nothing changed.

    `author` None: written by the site itself (« Ludothèque »), like the fixtures loader's revisions.

    The page row is locked for the transaction, so two simultaneous saves are numbered one after
    the other and the second one sees the first.
    """
    locked = RulePage.objects.select_for_update().get(pk=page.pk)
    current = locked.revisions.order_by("-number").first()
    current_number = current.number if current else 0
    if (base_number or 0) != current_number:
        raise ValidationError(
            _(
                "Quelqu'un a enregistré la version %(number)s de cette page pendant que vous la modifiiez. "
                "Votre texte est conservé ci-dessous : comparez-le avec la nouvelle version, puis enregistrez à nouveau."
            ),
            code="edit_conflict",
            params={"number": current_number},
        )
    content = normalise_content(content)
    check_revision_size(content)
    if current is not None and current.content == content:
        raise ValidationError(_("Le texte n'a pas changé : rien à enregistrer."), code="unchanged")
    return Revision.objects.create(
        page=locked,
        number=current_number + 1,
        author=author,
        author_name=author_name_for(author),
        summary=summary.strip(),
        content=content,
    )


def normalise_content(content: str) -> str:
    """Unix line ends, no trailing spaces at line ends, one final newline."""
    lines = content.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return "\n".join(line.rstrip() for line in lines).strip("\n") + "\n"


# --- loading the pages of fixtures/rules/<slug>.wiki -----------------------------------------------


@dataclass(frozen=True)
class WikiFile:
    """A page file: `key: value` header lines, `---`, then the body in the MediaWiki subset."""

    slug: str
    summary: str
    notice: str
    body: str


def wiki_file_read(path: Path) -> WikiFile:
    """Read a page file; raise ValueError naming the file when its header is malformed."""
    text = path.read_text(encoding="utf-8")
    lines = text.replace("\r\n", "\n").split("\n")
    header: dict[str, str] = {}
    for index, line in enumerate(lines):
        if line.strip() == "---":
            body = "\n".join(lines[index + 1 :])
            break
        if not line.strip():
            continue
        key, colon, value = line.partition(":")
        if not colon or key.strip() not in {"summary", "notice"}:
            raise ValueError(
                f"{path.name}, line {index + 1}: expected 'summary: …' or 'notice: …', got {line!r}"
            )
        header[key.strip()] = value.strip()
    else:
        raise ValueError(f"{path.name}: no '---' line between the header and the page text")
    return WikiFile(
        slug=path.stem, summary=header.get("summary", ""), notice=header.get("notice", ""), body=body
    )


@dataclass
class LoadReport:
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)  # the loader's own revision followed by a newer file
    linked: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # edited by staff since: the file is not applied
    missing_file: list[str] = field(default_factory=list)
    missing_notice: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    history: list[str] = field(default_factory=list)  # what the wiki history import did (wiki_import.py)


def placeholder_page(slug: str, title: str) -> WikiFile:
    """The minimal page of a game whose .wiki file is missing."""
    return WikiFile(
        slug=slug,
        summary=f"Page créée sans texte : le fichier fixtures/rules/{slug}.wiki manque.",
        notice=title,
        body="== But du jeu ==\n''Le texte de cette page reste à écrire.''\n",
    )


def rule_pages_load(*, directory: Path = WIKI_DIR, history: Path | None = WIKI_HISTORY) -> LoadReport:
    """Create a page (revision 1) for every game and every page file; link pages to their notices.

    Safe to run again: an existing page is never overwritten. If its current revision is still the
    loader's own and the file has changed, the file becomes the next revision; once staff edited the
    page, the file is left alone.

    `history`: a wiki contributions file (seed 003) whose pages' revisions are imported first, so a
    page's structured text follows its imported history; None skips it.
    """
    from .wiki_import import wiki_history_import  # it imports this module

    report = LoadReport()
    if history is not None:
        report.history = wiki_history_import(path=history).lines()
    files: dict[str, WikiFile] = {}
    for path in sorted(directory.glob("*.wiki")) if directory.exists() else []:
        try:
            files[path.stem] = wiki_file_read(path)
        except (ValueError, UnicodeDecodeError) as error:
            report.errors.append(str(error))
    # The coded games: a librarian's declared score sheet gets its page when it is created.
    titles = {rules.slug: rules.title for rules in all_games()}
    for slug in sorted(set(titles) | set(files)):
        if slug in files:
            wiki = files[slug]
        elif any(error.startswith(f"{slug}.wiki") for error in report.errors):
            continue
        else:
            wiki = placeholder_page(slug, titles[slug])
            report.missing_file.append(slug)
        title = titles.get(slug) or wiki.notice or slug
        try:
            action = rule_page_load(wiki=wiki, title=title)
        except (ValidationError, IntegrityError) as error:
            report.errors.append(f"{slug}: {error}")
            continue
        for name in action:
            getattr(report, name).append(slug)
    return report


@transaction.atomic
def rule_page_load(*, wiki: WikiFile, title: str) -> list[str]:
    """Load one page file; return what happened (`created`, `linked`, `updated`, `kept`…)."""
    actions: list[str] = []
    notice = Game.objects.filter(title=wiki.notice).order_by("pk").first() if wiki.notice else None
    page, created = RulePage.objects.select_for_update().get_or_create(
        slug=wiki.slug, defaults={"title": title, "game": _free(notice)}
    )
    content = normalise_content(wiki.body)
    current = None if created else page.revisions.order_by("-number").first()
    # An imported history (wiki_import.py) is followed by the page file, like the loader's own text.
    followed = current is not None and (current.by_loader or current.imported)
    if current is None or (followed and current.content != content):
        Revision.objects.create(
            page=page,
            number=current.number + 1 if current else 1,
            author_name=LOADER_AUTHOR,
            summary=wiki.summary[:500],
            content=content,
        )
        actions.append("created" if created else "updated")
    elif followed:
        actions.append("unchanged")
    else:
        actions.append("kept")
    if not created and page.game_id is None and _free(notice) is not None:
        page.game = notice
        page.save(update_fields=["game"])
        actions.append("linked")
    if page.game_id is None and wiki.notice:
        actions.append("missing_notice")
    return actions


def _free(notice: Game | None) -> Game | None:
    """The notice, unless another rules page already holds it (the link is one-to-one)."""
    if notice is None or RulePage.objects.filter(game=notice).exists():
        return None
    return notice


# --- publishing a page made from its notice ---------------------------------------------------------


@transaction.atomic
def rule_page_publish(*, page: RulePage, staff) -> RulePage:
    """A librarian has read the page and vouches for it: it is no longer « à compléter », and no new
    import of its notice will write it again. Publishing twice changes nothing the second time."""
    locked = RulePage.objects.select_for_update().get(pk=page.pk)
    if locked.reviewed_at is not None and not locked.generated:
        return locked
    if not locked.revisions.exists():
        raise ValidationError(_("Cette page n'a pas encore de texte à publier."), code="no_text")
    locked.generated = False
    locked.reviewed_at = timezone.now()
    locked.reviewed_by = staff
    locked.save(update_fields=["generated", "reviewed_at", "reviewed_by"])
    return locked
