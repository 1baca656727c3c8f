"""The catalogue's search: the free-text query, ranking, availability, facets, and the pages of results.

The whole search lives in this package: `queryset.py` (the QuerySet methods of `Game` that the
FilterSet of `catalogue/filters.py` calls), `text.py` (the query's words and their correction),
`keys.py` (a table's criteria as index keys), `availability.py` (« disponible »), `postings.py` (a
search of one word read from its postings, and the SQL of a page's ids with its count), `facets.py`,
`pages.py` (the paginators of `/jeux/` and of the API, and a result page's rows), `notice.py` (a game's
notice), `rendering.py` (the API's answers written out), `models.py` (the database-only tables,
described for a reader and the ORM) and `triggers.py` (the current source of the functions and
triggers the migrations installed).

On PostgreSQL the database keeps the search machinery up to date itself, whatever writes the games
(the triggers of migrations `0003_search_triggers_and_lexicon`, `0013_search_postings` and
`0014_search_posting_table_columns`, and the index of `0015_game_search_table_keys`):

- `Game.search_vector`: a weighted tsvector in the `french_unaccent` configuration (the French
  stemmer, with its stop words for words without accents; a word with accents loses them, then is
  stemmed without stop words: « dés » is not the article « des », migration 0017): title (A), authors
  and publishers (B), tags (C), summary (D);
- `catalogue_search_word`: the lexicon of every word of the catalogue, which pg_trgm searches to
  correct a misspelt query word;
- `catalogue_game.tag_ids`: a database-only array of the game's tag ids for the tag facets, in the
  covering index `catalogue_game_family_idx` with the family filters (ages, players, duration), and
  GIN-indexed for the tag filter (`catalogue_game_tag_ids_gin`, same migration).
- `catalogue_search_posting` (migrations 0013 and 0014): each word of a game's title, names and tags
  (A, B, C) with the game's rank for it, its title and the columns a table's search reads (players,
  ages, time, category, tags), B-tree-indexed in the order of the search: a search of one word reads
  its page, its count and its facets there, not every match (`postings.one_word_page()`,
  `posting_conditions()`).
- `catalogue_table_keys()` (migration 0015): a game's « table keys », its numbers of players, ages,
  times, category and tags as numbers (`table_keys()`), in the text's GIN index beside its search
  document: a text search with a table's criteria reads only the games that pass them.

On SQLite (a newcomer's first run) the text query falls back to `icontains`, without typo tolerance.
"""
