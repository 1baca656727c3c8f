"""A rules page's text: markup, revisions and their editor, history and comparison, the wiki import, the page files' loader."""
