"""How every form of the site renders: the project's templates, and a checkbox's label without a colon."""

from django import forms
from django.forms.renderers import TemplatesSetting


class BoundField(forms.BoundField):
    """A checkbox's label reads as the end of a sentence (« ☐ Disponible maintenant »), so it takes no
    « : » (Django adds the form's label suffix to every label; its admin already leaves it off there)."""

    def label_tag(self, contents=None, attrs=None, label_suffix=None, tag=None):
        if label_suffix is None and isinstance(self.field.widget, forms.CheckboxInput):
            label_suffix = ""
        return super().label_tag(contents, attrs, label_suffix, tag)


class FormRenderer(TemplatesSetting):
    """The templates of templates/django/forms/ over Django's, and the BoundField above."""

    bound_field_class = BoundField
