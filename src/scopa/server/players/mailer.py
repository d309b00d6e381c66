"""Sending e-mail through the operator's SMTP server (``smtp_*`` settings), with Python's
own ``smtplib``: no e-mail package to install. The site sends only two kinds of mail, both
one-time links (checking an address, resetting a password); nothing else is mailed."""

from __future__ import annotations

import asyncio
import smtplib
from email.message import EmailMessage

from ..common.settings import Settings

#: seconds an SMTP conversation may take before the send is given up
SMTP_TIMEOUT = 15.0


def configured(settings: Settings) -> bool:
    """Whether this site sends e-mail at all."""
    return bool(settings.smtp_host)


def send(settings: Settings, to: str, subject: str, body: str) -> None:
    """Send one plain-text message (blocking: run it off the event loop)."""
    message = EmailMessage()
    message["From"] = settings.smtp_from
    message["To"] = to
    message["Subject"] = subject
    message.set_content(body)
    with smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=SMTP_TIMEOUT) as smtp:
        if settings.smtp_starttls:
            smtp.starttls()
        if settings.smtp_user:
            smtp.login(settings.smtp_user, settings.smtp_password)
        smtp.send_message(message)


async def send_later(settings: Settings, to: str, subject: str, body: str) -> None:
    """``send`` in a thread, so the event loop never waits for the mail server."""
    await asyncio.to_thread(send, settings, to, subject, body)
