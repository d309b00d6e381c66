"""The rl tests need the ``rl`` extra, which ``scripts/setup.sh --dev`` installs: without it
they fail at import on purpose (a skip would hide a CI machine that lacks it)."""
