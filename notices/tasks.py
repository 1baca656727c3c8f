"""Sending a notice's e-mail, outside any web request, through Django's tasks framework."""

from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.tasks import task
from django.template.loader import render_to_string
from django.utils import timezone, translation

from .models import Notice

# What the notice keeps of a failure (the SMTP server's answer, or the connection error).
ERROR_MAX_CHARS = 1000


@task()
def notice_send(*, notice_id: int) -> str:
    """Send one e-mail notice unless it went out already; record the failure to be retried otherwise.

    The notice's row stays locked while the message is handed to the mail server, so two workers given
    the same notice (a retry enqueued twice) send it once: the second skips a locked or sent notice.
    """
    with transaction.atomic():
        notice = (
            Notice.objects.to_send()
            .select_for_update(of=("self",), skip_locked=True)
            .select_related("member")
            .filter(pk=notice_id)
            .first()
        )
        if notice is None:
            return "already sent, or being sent"
        notice.attempts += 1
        # The family's address now: the desk may have corrected it since a failed attempt.
        notice.recipient = notice.member.email
        try:
            if not notice.recipient:
                raise ValueError("the family has no e-mail address any more")
            # RFC 3834: an automatic message, so that vacation responders do not answer it.
            message = EmailMultiAlternatives(
                notice.subject,
                notice.body_text,
                to=[notice.recipient],
                headers={"Auto-Submitted": "auto-generated"},
            )
            with translation.override(notice.language):
                html = render_to_string("notices/email.html", {"notice": notice})
            message.attach_alternative(html, "text/html")
            message.send()
        except Exception as error:  # noqa: BLE001 — whatever the mail server says, record it and go on
            notice.status = Notice.Status.FAILED
            notice.error = f"{type(error).__name__}: {error}"[:ERROR_MAX_CHARS]
        else:
            notice.status = Notice.Status.SENT
            notice.sent_at = timezone.now()
            notice.error = ""
        notice.save(update_fields=["attempts", "recipient", "status", "sent_at", "error"])
    return notice.status
