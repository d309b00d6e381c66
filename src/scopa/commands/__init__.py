"""Subcommands of the scopa command line, one module per group."""
