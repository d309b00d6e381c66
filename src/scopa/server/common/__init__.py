"""What every part of the server uses and that knows none of them: ``settings``
(configuration from flags and SCOPA_* variables), ``errors`` (error bodies, always JSON,
declared per route), ``timing`` (phase timings and counters), ``clock`` (wall time and
waiting, faked in tests), ``buckets`` (rate limits), ``security`` (response headers,
WebSocket origins, the client's address, the docs page), ``lookalike`` (TR39 skeletons:
names that look alike).

May import: the standard library, the web stack, and the engine (``scopa.*`` modules); no
other server package."""
