"""``python -m scopa.protocol LEVEL [SEED]``: serve a bot over the protocol (light start-up,
the same loop as ``scopa bot``)."""

from __future__ import annotations

import sys

from .serve import serve_named


def main(argv: list[str]) -> int:
    if not argv or len(argv) > 2:
        print("usage: python -m scopa.protocol LEVEL [SEED]", file=sys.stderr)
        return 2
    try:
        return serve_named(argv[0], sys.stdin, sys.stdout, argv[1] if len(argv) > 1 else None)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
