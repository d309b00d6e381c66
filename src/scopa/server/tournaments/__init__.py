"""Tournaments on the server (issue 31's online half; the site calls them "events", the
code "tournaments", as "event" is a match log's entry here): stored as the tournament
model's JSON, entrants signing up with their accounts, rounds played at the server's own
tables (or entered by an organiser at a club night), and the HTTP API and pages' data.

This package owns the tournaments' rows and their store, the rules of who may do what to an
event, starting a round's tables and taking their results. It may import ``common``,
``store``, ``players``, ``play`` and the tournament model (``scopa.tournament``, which
holds every rule of pairing, results and standings); nothing imports it but ``ops``
(the app's wiring).
"""
