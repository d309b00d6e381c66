"""``python -m scopa.server``: the same as ``scopa serve``, without the rest of the CLI."""

import typer

from .ops.run import serve

if __name__ == "__main__":
    typer.run(serve)
