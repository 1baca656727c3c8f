"""The admin follows one rule: every active staff member is a librarian; history stays read-only."""

import pytest
from django.contrib import admin
from django.urls import reverse

from catalogue.models import Copy
from ledger.models import Entry, Membership, TillClosure
from loans.models import Loan
from rules.models import Revision

pytestmark = pytest.mark.django_db

PROJECT_APPS = {"catalogue", "members", "loans", "rules", "ledger", "inventory"}
REGISTERED = sorted(
    model._meta.label_lower for model in admin.site._registry if model._meta.app_label in PROJECT_APPS
)


def changelist(label: str) -> str:
    app_label, model_name = label.split(".")
    return reverse(f"admin:{app_label}_{model_name}_changelist")


def test_every_project_model_is_in_the_admin():
    assert {label.split(".")[0] for label in REGISTERED} == PROJECT_APPS
    assert {"catalogue.game", "catalogue.copy", "members.member", "loans.loan", "rules.rulepage"} <= set(
        REGISTERED
    )


@pytest.mark.parametrize("label", REGISTERED)
def test_a_staff_member_without_model_permissions_can_open_every_list(client, staff_user, label):
    assert not staff_user.user_permissions.exists() and not staff_user.is_superuser
    client.force_login(staff_user)
    assert client.get(changelist(label)).status_code == 200


@pytest.mark.parametrize("label", REGISTERED)
def test_an_outsider_and_an_anonymous_visitor_are_sent_to_the_login(client, outsider, label):
    response = client.get(changelist(label))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    client.force_login(outsider)
    response = client.get(changelist(label))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_the_admin_index_lists_the_project_apps_for_a_librarian(client, staff_user):
    client.force_login(staff_user)
    html = client.get(reverse("admin:index")).content.decode()
    for app_label in sorted(PROJECT_APPS):
        assert f"/admin/{app_label}/" in html


@pytest.mark.parametrize("model", [Loan, Revision, Entry, Membership, TillClosure])
def test_history_cannot_be_added_or_deleted_in_the_admin(client, staff_user, model):
    client.force_login(staff_user)
    opts = model._meta
    assert client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_add")).status_code == 403
    html = client.get(reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")).content.decode()
    assert "delete_selected" not in html


def test_a_librarian_may_add_a_copy_and_a_family(client, staff_user):
    client.force_login(staff_user)
    assert client.get(reverse("admin:catalogue_copy_add")).status_code == 200
    assert client.get(reverse("admin:members_member_add")).status_code == 200
    assert Copy.objects.count() == 0


def test_the_families_admin_addresses_of_before_the_members_app_still_open_them(client, staff_user):
    client.force_login(staff_user)
    response = client.get("/admin/loans/member/add/?_popup=1", follow=True)
    assert response.redirect_chain[0] == ("/admin/members/member/add/?_popup=1", 301)
    assert response.status_code == 200
    response = client.get("/admin/loans/membershiptype/", follow=True)
    assert response.redirect_chain[0] == ("/admin/members/membershiptype/", 301)
    assert response.status_code == 200
