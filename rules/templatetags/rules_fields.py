"""`{% control field %}`: one input of a rules form, written out in Python (a score sheet draws dozens).

The same HTML as `templates/rules/includes/field.html`, which still draws the inputs that need a
fieldset (checkboxes, a board's pieces): a label for screen readers only in a sheet's cell
(`compact`), kept in a row of a list (`mini`), the help text outside a sheet, the errors under their id.
"""

from django import template
from django.template.loader import render_to_string
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

register = template.Library()


def errors_html(errors, anchor: str = "") -> SafeString:
    """`templates/rules/includes/errors.html`: a list of messages, with an id the input points to."""
    if not errors:
        return mark_safe("")
    items = format_html_join("", "<li>{}</li>", ((error,) for error in errors))
    if anchor:
        return format_html('<ul class="errorlist" id="{}-errors">{}</ul>', anchor, items)
    return format_html('<ul class="errorlist">{}</ul>', items)


@register.simple_tag
def control(field, compact: bool = False, mini: bool = False) -> SafeString:
    if field.use_fieldset:
        return render_to_string(
            "rules/includes/field.html", {"field": field, "compact": compact, "mini": mini}
        )
    errors, kind, anchor = field.errors, field.widget_type, field.auto_id
    widget = field.as_widget()
    hidden_label = compact and not mini
    label = format_html(
        '<label for="{}"{}>{}</label>',
        anchor,
        mark_safe(' class="visually-hidden"') if hidden_label else "",
        field.label,
    )
    help_text = (
        format_html('<span class="helptext">{}</span>', field.help_text)
        if field.help_text and not compact
        else ""
    )
    return format_html(
        '<span class="control control-{}{}">{}{}{}{}{}</span>',
        kind,
        mark_safe(" has-errors") if errors else "",
        widget if kind == "checkbox" else "",
        label,
        widget if kind != "checkbox" else "",
        help_text,
        errors_html(errors, anchor),
    )


@register.simple_tag
def cell_errors(cell) -> SafeString:
    """What the engine said of a sheet cell's group or list (its inputs show their own)."""
    return errors_html(cell.errors)


def _row_html(row) -> SafeString:
    """One row of a score sheet: its heading (help, « + une ligne ») and a cell per column."""
    heading = format_html(
        "{}{}{}",
        row.label,
        format_html('<span class="helptext">{}</span>', row.help) if row.help else "",
        format_html(
            ' <button type="submit" name="more" value="{}" class="secondary small screen-only" '
            "formnovalidate>{}</button>",
            row.more,
            gettext("+ une ligne"),
        )
        if row.more
        else "",
    )
    slot = row.kind == "slot"
    cells = []
    for cell in row.cells:
        inputs = mark_safe("".join(control(field, True, slot) for field in cell.fields))  # noqa: S308
        cells.append(
            format_html(
                '<td data-cell="{}"{}>{}{}{}</td>',
                cell.anchor,
                mark_safe(' class="mini"') if slot else "",
                cell.hidden or "",
                format_html('<div class="mini-grid">{}</div>', inputs) if slot else inputs,
                errors_html(cell.errors),
            )
        )
    return format_html(
        '<tr class="row-{} depth-{}"><th scope="row">{}</th>{}</tr>',
        row.kind,
        row.depth,
        heading,
        mark_safe("".join(cells)),  # noqa: S308 - each cell built by format_html
    )


@register.simple_tag
def sheet_rows(rows) -> SafeString:
    """A score sheet's rows (rules/score_sheet.py), written out in Python: a sheet has dozens of inputs."""
    return mark_safe("\n".join(_row_html(row) for row in rows))  # noqa: S308 - each row built by format_html
