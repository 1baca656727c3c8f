"""`{% once_input %}`: the one-time token of a form written by hand in a template (once/forms.py)."""

import uuid

from django import template
from django.utils.html import format_html

from ..forms import FIELD

register = template.Library()


@register.simple_tag
def once_input() -> str:
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, uuid.uuid4())
