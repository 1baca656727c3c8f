"""What a PMB page holds once read (catalogue/pmb.py): notices, their credits and copies, and the
notices that could not be read, with where to find them."""

from dataclasses import dataclass, field

from .pieces import Piece


@dataclass(frozen=True)
class PmbAuthor:
    name: str
    role: str  # as printed, e.g. "Auteur"


@dataclass(frozen=True)
class PmbPublisher:
    name: str
    place: str = ""


@dataclass(frozen=True)
class PmbLanguage:
    code: str
    name: str


@dataclass(frozen=True)
class PmbCategory:
    code: str
    label: str
    family: str = ""


@dataclass(frozen=True)
class PmbCopy:
    cote: str
    section: PmbCategory | None
    location: str
    barcode: str
    availability: str


@dataclass
class PmbNotice:
    """One notice as the OPAC shows it, with where it was read."""

    title: str
    source: str = ""
    line: int = 0
    index: int = 0
    document_type: str = ""
    authors: list[PmbAuthor] = field(default_factory=list)
    publishers: list[PmbPublisher] = field(default_factory=list)
    languages: list[PmbLanguage] = field(default_factory=list)
    category: PmbCategory | None = None
    tags: list[str] = field(default_factory=list)
    players_min: int | None = None
    players_max: int | None = None
    age_min: int | None = None
    age_max: int | None = None
    duration_minutes: int | None = None
    summary: str = ""
    rules_summary: str = ""
    pedagogical_analysis: str = ""
    contents: str = ""
    online_url: str = ""
    components: list[Piece] = field(default_factory=list)
    copies: list[PmbCopy] = field(default_factory=list)
    documents: list[str] = field(default_factory=list)

    @property
    def position(self) -> str:
        return _position(self.source, self.line, self.index)


def _position(source: str, line: int, index: int) -> str:
    if not index:  # the whole file
        return source
    where = f"{source}:{line}" if source else f"ligne {line}"
    return f"{where} (notice {index})"


class PmbError(ValueError):
    """A notice that cannot be read, with the file and position to find it."""

    def __init__(self, message: str, *, source: str = "", line: int = 0, index: int = 0):
        super().__init__(message)
        self.message = message
        self.source = source
        self.line = line
        self.index = index

    @property
    def position(self) -> str:
        return _position(self.source, self.line, self.index)

    def __str__(self) -> str:
        return f"{self.position} : {self.message}"


@dataclass
class PmbPage:
    """What one file holds: the notices read and the ones that could not be read."""

    source: str
    notices: list[PmbNotice]
    errors: list[PmbError]

    @property
    def has_notices(self) -> bool:
        return bool(self.notices or self.errors)
