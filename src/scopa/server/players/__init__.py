"""People: ``accounts`` (sign-up, sign-in, the account's routes), ``sessions``,
``passwords`` and ``hashgate`` (hashing without starving the server), ``throttle``
(against guessing), ``ratings`` and ``farming``, ``profiles``, ``friends`` (follows,
invitations, blocks), ``moderation``, ``resets``, ``email_reset`` and ``mailer``, ``names``
(nicknames), ``account_store``; ``live`` says, as a protocol, what the players' routes need
of the live tables.

May import: ``server.common``, ``server.store`` and the engine; never ``play`` (the live
tables reach it through ``live.LiveTables``)."""
