"""Table chat: ``room`` (the chat of each table: limits, quick phrases, mutes, across
workers), ``chatstore`` (the kept messages), ``reports`` (the reporting route).

May import: ``server.common``, ``server.store``, ``server.players``, ``server.play``."""
