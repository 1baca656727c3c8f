"""How a search sorts its games and how far it counts them."""

from django.db.models import (
    F,
)

# A search counts its games exactly up to this many, then only says "more than" (as search engines
# do): "more than 1,000 games" helps a family as much as "13,112", and the cost of a search then grows
# with the page, not with the catalogue. Its facets are those of the first games found, as many.
EXACT_COUNT_LIMIT = 1000
# The order of a table's search without text: the games that fit everyone first, then by title.
FITS_FIRST = (F("fits_everyone").desc(), "title", "pk")
# The order of a text search without ages: the best ranked first, then by title.
RANKED = (F("rank").desc(), "title", "pk")
# A table's text search: the games that fit everyone first, then the same.
FITS_FIRST_RANKED = (F("fits_everyone").desc(), *RANKED)
