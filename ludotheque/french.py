"""French as it is written: « de » elided before a vowel (« Compte d'Alex », « Règles d'Alhambra »).

A translated sentence with a name in it cannot know the name's first letter (« Compte de %(name)s »);
`elide()` writes « d' » where French elides, in French only. Templates use it as the built-in filter
`elide`, around a translated sentence: `{% filter elide %}{% blocktranslate %}…{% endblocktranslate %}{% endfilter %}`.
"""

import re

from django import template
from django.utils.safestring import SafeData, mark_safe
from django.utils.translation import get_language

register = template.Library()

# « de » as a word (not « monde », not « d'»), then a word starting with a vowel. An « h » is left
# alone (« de Hugo », h aspiré or not, cannot be told from the spelling), as is a lone letter (« de A »).
DE_BEFORE_VOWEL = re.compile(r"(?<![\w'’-])([Dd])e (?=[AEIOUYÀÂÉÈÊËÎÏÔÛaeiouyàâéèêëîïôû]\w)")


def elide(text: str) -> str:
    """Elide « de » before a vowel when the active language is French; other languages unchanged."""
    if not (get_language() or "fr").startswith("fr"):
        return text
    elided = DE_BEFORE_VOWEL.sub(r"\1'", str(text))
    return mark_safe(elided) if isinstance(text, SafeData) else elided


register.filter("elide", elide, is_safe=True)
