"""Bots online: outside programs that play people through the server (issue 43).

``bot_store`` (bot accounts and their API tokens), ``api`` (the HTTP routes: make a bot,
its tokens, the bots online, a challenge), ``link`` (one bot's WebSocket: offers,
accepting them, resuming its tables), ``seat_link`` (one table seat of it: the table's
frames turned into the bot protocol's messages and its answers into moves), ``offers``
(how an offer of a seat reaches the bots, on the broker's channels).

May import: ``server.common``, ``server.store``, ``server.players``, ``server.play`` and
the engine and bot protocol."""
