"""Score sheets librarians declare in the admin, without code, read as the engine's GameRules."""
