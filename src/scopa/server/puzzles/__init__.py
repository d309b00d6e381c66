"""Puzzles on the server ("find the play", issue 42): the puzzles ``scopa puzzles load`` put
in the database, the puzzle of the day, the next puzzle for a player near their puzzle
rating, and the answers, checked here and never in the page. ``store`` keeps the rows (no
SQL in the routes), ``rating`` moves a player's puzzle rating and the puzzle's with
openskill as the game ratings do (a pool of its own), ``api`` is the routes, ``answers``
their types.

What a solver is sent before answering is only its fair view (``bots.puzzles.fair_view``);
the best play, the values and the reason come with the answer.

May import: ``server.common``, ``server.store``, ``server.players`` and the engine and bots.
"""
