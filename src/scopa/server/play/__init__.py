"""Tables and matches: ``lobby`` (the HTTP routes that make and join tables), ``master``
(the authoritative master: the async shell that locks, stores and tells), ``flow`` (what a
move, a vote or a resignation does to a table, without asyncio), ``table`` (a table's
record), ``frames`` (what each socket is sent), ``botpool`` (bots and analyses in process
pools), ``cluster`` (one worker among several), ``fairplay``, ``outcome`` (a finished match
for the ratings), ``history`` (finished matches and their records).

May import: ``server.common``, ``server.store``, ``server.players`` and the engine, bots
and bot protocol."""
