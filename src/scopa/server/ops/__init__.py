"""Running the server: ``app`` (the wiring of everything below), ``hub`` (the WebSocket
door to play and chat), ``run`` (``scopa serve``), ``preflight`` and ``announce`` (start-up
checks and the address), ``health``, ``metrics``, ``logs``, ``gcpolicy``, ``admin`` (``scopa
admin``: the operator's commands on the database).

May import: every other server package."""
